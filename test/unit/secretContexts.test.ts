/**
 * Secrets recognised by the context they stand in (issue 26): curl's `-u` however the shell
 * argument is quoted, Kubernetes Secret manifests (and the manifests that only reference
 * secrets), and the placeholders each of them holds in documentation. Every value is generated
 * (never a real secret).
 */
import { describe, expect, it } from 'vitest';
import { ALNUM, pseudo } from '../support/pseudoText';
import { scrubSecrets } from '../../src/main/safety/secretScrubber';

const HEX = '0123456789abcdef';
const PW = `${pseudo(9, ALNUM, 301)}7!${pseudo(4, ALNUM, 303)}`;
const TOKEN = `${pseudo(10, ALNUM, 305)}4${pseudo(9, ALNUM, 307)}`;
const ID = `${pseudo(8, HEX, 309)}-${pseudo(4, HEX, 311)}-4${pseudo(3, HEX, 313)}-9${pseudo(3, HEX, 315)}-${pseudo(12, HEX, 317)}`;
const b64 = (s: string): string => Buffer.from(s).toString('base64');

const unchanged = (text: string): void => {
  expect(scrubSecrets(text).text).toBe(text);
};

describe('scrubSecrets: curl -u / --user', () => {
  const cases: [string, string, string][] = [
    ['an empty user name', `curl -u ":${PW}" https://localhost:9200`, 'curl -u ":[REDACTED:password]" https://localhost:9200'],
    ['an empty password: the value is a token', `curl -u "${TOKEN}:" https://api.example.test/v1`, 'curl -u "[REDACTED:password]:" https://api.example.test/v1'],
    ['a bare token with an empty password', `curl https://api.example.test/v1/charges -u ${TOKEN}:`, 'curl https://api.example.test/v1/charges -u [REDACTED:password]:'],
    ['user and password quoted apart', `curl -X POST --user "{${ID}}":"{${TOKEN}}" --header "Accept: application/json" https://api.example.test/x`, `curl -X POST --user "{${ID}}":"[REDACTED:password]" --header "Accept: application/json" https://api.example.test/x`],
    ['a quote starting after the colon', `curl --user kevin:'${PW}' -iX PATCH -H "Content-Type: application/json" -d @body.json`, `curl --user kevin:'[REDACTED:password]' -iX PATCH -H "Content-Type: application/json" -d @body.json`],
    ['single quotes around the pair', `curl -s --user 'api:${PW}' https://api.example.test/v3/messages`, "curl -s --user 'api:[REDACTED:password]' https://api.example.test/v3/messages"],
    ['--user=', `curl --user=deploy:${PW} https://x.example.test`, 'curl --user=deploy:[REDACTED:password] https://x.example.test'],
    ['--proxy-user', `curl --proxy-user ops:${PW} -x http://proxy.example.test:3128 https://x.example.test`, 'curl --proxy-user ops:[REDACTED:password] -x http://proxy.example.test:3128 https://x.example.test'],
    [
      'at the end of a \\-continued command',
      `sh-5.0$ curl -k -X POST https://cache.example.test:11222/rest/v2/caches/default/hello \\\n  -H 'Content-type: text/plain' \\\n  -d 'world' \\\n  -u developer:${PW}`,
      "sh-5.0$ curl -k -X POST https://cache.example.test:11222/rest/v2/caches/default/hello \\\n  -H 'Content-type: text/plain' \\\n  -d 'world' \\\n  -u developer:[REDACTED:password]",
    ],
    ['on a continued line with more after it', `curl https://api.example.test/oauth2/token \\\n  --user client7:${PW} --data grant_type=authorization_code`, 'curl https://api.example.test/oauth2/token \\\n  --user client7:[REDACTED:password] --data grant_type=authorization_code'],
    ['after data holding & and ;', `curl -d 'a=1&b=2;c' -u bob:${PW} https://x.example.test`, "curl -d 'a=1&b=2;c' -u bob:[REDACTED:password] https://x.example.test"],
  ];
  for (const [name, input, expected] of cases) {
    it(name, () => {
      expect(scrubSecrets(input).text).toBe(expected);
      expect(scrubSecrets(expected).text).toBe(expected);
    });
  }

  it('leaves placeholder pairs, references and a user without a password alone', () => {
    for (const text of [
      "curl -i -u 'test:test'",
      'curl -u user:pass https://x.example.test',
      'curl http://127.0.0.1:5000/file --user user:password --digest',
      'curl --user "xxx:yyy"',
      'curl -u <user:password> https://x.example.test/endpoint',
      'curl -u <user>:<password> https://x.example.test/endpoint',
      'curl --user neo4j:[PASSWORD] http://[IP]:7474/db/data/',
      'curl -u $USER:$PASS https://x.example.test',
      'curl -u "${USER}:${TOKEN}" https://x.example.test',
      'curl -sL --user "$1:$2" "$3"',
      'curl -X POST --user "$(cat ./login.txt):$(cat ./password.txt)"',
      'curl -XGET -i -u "${{ env.ELK_ID }}:${{ secrets.ELK_PASS }}"',
      'curl --fail --user "{{ .Values.username }}:{{ .Values.password }}"',
      'curl -u username:password https://x.example.test',
      'curl -u username:token',
      'curl -u jenkins:jenkins https://ci.example.test',
      'curl -u "{apikey}":"{password}" https://x.example.test',
      'curl -u "myusername" http://localhost:15130/api/check_user/',
      'curl -u ":" https://localhost:9200',
      'curl -u "deploy:" https://x.example.test',
      'curl --mail-from "src@example.test" --user "src@example.test" --upload-file out.txt smtps://smtp.example.test',
    ]) {
      unchanged(text);
    }
  });

  it('reads past a quote never closed on its line to the next command', () => {
    const text = `curl -u "half-typed https://x.example.test\ncurl -u bob:${PW} https://x.example.test`;
    expect(scrubSecrets(text).text).toBe('curl -u "half-typed https://x.example.test\ncurl -u bob:[REDACTED:password] https://x.example.test');
  });

  it('reads only the curl command: another command on the line after | or ; is not curl’s', () => {
    unchanged('curl -s https://x.example.test | grep -u foo:bar2x9');
    unchanged('libcurl -u admin:x8Kq2mZ7pL');
  });
});

describe('scrubSecrets: Kubernetes Secret manifests', () => {
  const VALUE = b64(`${PW}-${TOKEN}`);

  it('redacts data under kind: Secret in any case, quoted or not, before or after data:', () => {
    for (const kind of ['secret', 'SECRET', '"secret"', "'Secret'"]) {
      expect(scrubSecrets(`apiVersion: v1\nkind: ${kind}\ndata:\n  password: ${VALUE}\nmetadata:\n  name: app`).text).toBe(`apiVersion: v1\nkind: ${kind}\ndata:\n  password: [REDACTED:secret]\nmetadata:\n  name: app`);
    }
    expect(scrubSecrets(`apiVersion: v1\ndata:\n\textra: "${VALUE}"\nkind: "secret"\nmetadata:\n\tname: sa`).text).toBe('apiVersion: v1\ndata:\n\textra: "[REDACTED:secret]"\nkind: "secret"\nmetadata:\n\tname: sa');
  });

  it('redacts the data of a Secret written as JSON, kind in lower case', () => {
    const json = `{\n  "apiVersion": "v1",\n  "kind": "secret",\n  "data": {\n    "db.url": "${VALUE}"\n  }\n}`;
    expect(scrubSecrets(json).text).toBe(json.replace(VALUE, '[REDACTED:secret]'));
  });

  it('leaves padded base64 of under 4 characters alone (`YmFyCg==` is "bar")', () => {
    unchanged(`apiVersion: v1\nkind: Secret\ndata:\n  extra: ${b64('abc\n')}\nmetadata:\n  name: sa`);
  });

  it('leaves ExternalSecret, SecretStore and ClusterSecretStore manifests alone', () => {
    unchanged(
      [
        'apiVersion: external-secrets.io/v1beta1',
        'kind: ExternalSecret',
        'metadata:',
        '  name: app-credentials',
        'spec:',
        '  refreshInterval: 1h',
        '  secretStoreRef:',
        '    name: vault-backend',
        '    kind: ClusterSecretStore',
        '  target:',
        '    name: app-credentials',
        '    creationPolicy: Owner',
        '  data:',
        '    - remoteRef:',
        '        key: prod/app/database',
        '        property: password',
        '  dataFrom:',
        '    - extract:',
        '        key: prod/app/extra',
        '---',
        'apiVersion: external-secrets.io/v1beta1',
        'kind: SecretStore',
        'metadata:',
        '  name: vault-backend',
        'spec:',
        '  provider:',
        '    vault:',
        '      server: "https://vault.example.test:8200"',
      ].join('\n'),
    );
  });

  it('leaves a Deployment that references a secret (secretKeyRef) alone', () => {
    unchanged('kind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n        - name: app\n          env:\n            - name: DB_PASSWORD\n              valueFrom:\n                secretKeyRef:\n                  name: app-db\n                  key: password');
  });

  it('counts only the Secret document’s data: a ConfigMap after `---` and a Secret without data stay', () => {
    const manifest = ['kind: Secret', 'target:', '  name: mysecret', '  creationPolicy: Owner', '', '---', '', 'kind: ConfigMap', 'data:', '  mode: production', `  build.id: ${pseudo(18, ALNUM, 321)}`].join('\n');
    unchanged(manifest);
    const both = `kind: Secret\nmetadata:\n  name: a\ndata:\n  token: ${VALUE}\n---\nkind: ConfigMap\ndata:\n  mode: production\n  build.id: ${pseudo(18, ALNUM, 321)}`;
    expect(scrubSecrets(both).text).toBe(both.replace(VALUE, '[REDACTED:secret]'));
  });
});
