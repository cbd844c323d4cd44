import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useEngineClient } from '../support/engineClient';

const { open } = useEngineClient();

describe('the ssh.hosts request, over the WebSocket transport', () => {
  it("lists the Host aliases of the engine's HOME's ~/.ssh/config, read anew at each request", async () => {
    const { client, engine } = await open({ shell: '/bin/bash' });
    const ssh = join(engine.home, '.ssh');

    const before = await client.request('ssh.hosts', {});
    expect(before).toEqual({ hosts: [], problems: [`there is no ${join(ssh, 'config')}`] });

    mkdirSync(join(ssh, 'hosts.d'), { recursive: true });
    writeFileSync(join(ssh, 'config'), 'Host *\n  User everyone\nHost web\n  HostName web.example.com\n  User alice\n  Port 2222\nInclude hosts.d/*.conf\n');
    writeFileSync(join(ssh, 'hosts.d', 'db.conf'), 'Host db db-replica\n  HostName 10.1.2.3\n');
    expect(await client.request('ssh.hosts', {})).toEqual({
      hosts: [
        { alias: 'web', hostName: 'web.example.com', user: 'alice', port: 2222 },
        { alias: 'db', hostName: '10.1.2.3' },
        { alias: 'db-replica', hostName: '10.1.2.3' },
      ],
      problems: [],
    });

    writeFileSync(join(ssh, 'hosts.d', 'db.conf'), 'Host cache\n');
    expect((await client.request('ssh.hosts', {})).hosts.map((host) => host.alias)).toEqual(['web', 'cache']);
  });

  it('refuses parameters it does not know', async () => {
    const { client } = await open({ shell: '/bin/bash' });
    await expect(client.request('ssh.hosts', { path: '/etc/passwd' } as never)).rejects.toThrow(/Invalid ssh.hosts request/);
  });
});
