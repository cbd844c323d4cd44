import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { simpleCommands } from '../../src/main/agent/summarizer/commandWords';
import { classifyOutput, OUTPUT_TYPES, typeFromCommand, typeFromText, type OutputType } from '../../src/main/agent/summarizer/outputType';
import { isSimpleCommand, needsSummary } from '../../src/main/agent/summarizer/summaryThreshold';

const FIXTURES = join(__dirname, '../fixtures');
const lines = (text: string) => text.split('\n');
const fixture = (name: string) => readFileSync(join(FIXTURES, 'outputs', name), 'utf8');
/** A transcript fixture (`$ cmd` then its output) without its command lines. */
const transcript = (name: string) => lines(readFileSync(join(FIXTURES, 'secrets/ordinary', name), 'utf8')).filter((line) => !line.startsWith('$ '));

describe('commandWords', () => {
  it('splits a line into simple commands, dropping wrappers and assignments, keeping redirections', () => {
    expect(simpleCommands('cd app && FORCE_COLOR=1 npx vitest run 2>&1 | tee log.txt')).toEqual([['cd', 'app'], ['vitest', 'run', '2>&1'], ['tee', 'log.txt']]);
    expect(simpleCommands("sudo -E timeout 30s apt-get install -y 'ripgrep'; echo done")).toEqual([['apt-get', 'install', '-y', 'ripgrep'], ['echo', 'done']]);
    expect(simpleCommands('(cd src; make) || exit 1')).toEqual([['cd', 'src'], ['make'], ['exit', '1']]);
    expect(simpleCommands('')).toEqual([]);
  });
});

describe('output types from the command', () => {
  const table: [string, OutputType | undefined][] = [
    ['npm test', 'test-results'],
    ['npm run test:unit -- --watch=false', 'test-results'],
    ['pnpm t', 'test-results'],
    ['npx vitest run test/unit/outputType.test.ts', 'test-results'],
    ['./node_modules/.bin/jest --ci', 'test-results'],
    ['python3 -m pytest -x tests/', 'test-results'],
    ['go test ./...', 'test-results'],
    ['cargo test --release', 'test-results'],
    ['node --test test/', 'test-results'],
    ['make check', 'test-results'],
    ['./gradlew test', 'test-results'],
    ['bundle exec rspec spec/models', 'test-results'],
    ['yarn jest --ci', 'test-results'],
    ['pnpm exec vitest run', 'test-results'],
    ['python manage.py test accounts', 'test-results'],
    ['bin/rails test test/models', 'test-results'],
    ['npx eslint src', 'build-output'],
    ['ruff check .', 'build-output'],
    ['yarn tsc --noEmit', 'build-output'],
    ['cd api && CI=1 npm test 2>&1 | tail -n 100', 'test-results'],
    ['npm run build', 'build-output'],
    ['make -j8', 'build-output'],
    ['tsc -p tsconfig.json --noEmit', 'build-output'],
    ['cargo build --release', 'build-output'],
    ['go vet ./...', 'build-output'],
    ['docker build -t app .', 'build-output'],
    ['cmake --build build', 'build-output'],
    ['gcc -O2 -o main main.c', 'build-output'],
    ['npm install', 'package-install'],
    ['npm ci', 'package-install'],
    ['yarn', 'package-install'],
    ['pnpm add -D fast-check', 'package-install'],
    ['pip install -r requirements.txt', 'package-install'],
    ['python -m pip install requests', 'package-install'],
    ['sudo apt-get install -y ripgrep', 'package-install'],
    ['brew install jq', 'package-install'],
    ['cargo add serde', 'package-install'],
    ['go mod download', 'package-install'],
    ['bundle install', 'package-install'],
    ['git status', 'git'],
    ['git log --oneline -20', 'git'],
    ['git -C repo pull --rebase', 'git'],
    ['docker logs -f web', 'logs'],
    ['docker compose logs api', 'logs'],
    ['kubectl logs deploy/api -n staging', 'logs'],
    ['journalctl -u nginx --since today', 'logs'],
    ['tail -n 500 /var/log/syslog', 'logs'],
    ['cat server.log', 'logs'],
    ['ls -la', undefined],
    ['ps aux', undefined],
    ['./run.sh', undefined],
    ['npm run dev', undefined],
    ['cargo run --bin server', undefined],
  ];
  it.each(table)('%s → %s', (command, type) => {
    expect(typeFromCommand(command)).toBe(type);
  });
});

describe('output types from the text', () => {
  const table: [string, string[], OutputType | undefined][] = [
    ['jest', lines(fixture('jest-fail.txt')), 'test-results'],
    ['pytest', lines(fixture('pytest-fail.txt')), 'test-results'],
    ['tsc', lines(fixture('tsc-errors.txt')), 'build-output'],
    ['gcc + make', lines(fixture('gcc-errors.txt')), 'build-output'],
    ['git status', lines(fixture('git-status.txt')), 'git'],
    ['git pull with a conflict', lines(fixture('git-pull-conflict.txt')), 'git'],
    ['apt-get install', lines(fixture('apt-install.txt')), 'package-install'],
    ['a service log', lines(fixture('service-log.txt')), 'logs'],
    ['cargo build transcript', transcript('cargo-build.txt'), 'build-output'],
    ['git log transcript', transcript('git-log.txt'), 'git'],
    ['npm install transcript', transcript('npm-install.txt'), 'package-install'],
    ['pip install transcript', transcript('pip-install.txt'), 'package-install'],
    ['ps aux', transcript('ps-aux.txt'), undefined],
    ['ls -la, find, tree', transcript('ls-la-find-tree.txt'), undefined],
  ];
  it.each(table)('%s', (_name, text, type) => {
    expect(typeFromText(text)).toBe(type);
  });

  it('the command wins over the text; without a known command the text decides, else generic', () => {
    expect(classifyOutput('npm test', lines(fixture('tsc-errors.txt')))).toBe('test-results');
    expect(classifyOutput('./ci.sh', lines(fixture('pytest-fail.txt')))).toBe('test-results');
    expect(classifyOutput('./ci.sh', ['hello', 'world'])).toBe('generic');
  });

  it('looks only at the ends of a huge output, and still finds a test summary there', () => {
    const noise = Array.from({ length: 100_000 }, (_, i) => `line ${i} of something`);
    const text = [...noise, ...lines(fixture('jest-fail.txt'))];
    expect(typeFromText(text)).toBe('test-results');
  });
});

describe('classifier properties', () => {
  it('never throws, always answers one of the types, the same way twice', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.array(fc.string({ maxLength: 120 }), { maxLength: 80 }), (command, text) => {
        const type = classifyOutput(command, text);
        expect(OUTPUT_TYPES).toContain(type);
        expect(classifyOutput(command, text)).toBe(type);
      }),
    );
  });

  it('a known command keeps its type behind wrappers, assignments, cd and pipes', () => {
    const known = fc.constantFrom<[string, OutputType]>(['npm test', 'test-results'], ['cargo build', 'build-output'], ['git diff', 'git'], ['pip install flask', 'package-install'], ['journalctl -b', 'logs']);
    const prefix = fc.constantFrom('', 'sudo ', 'time ', 'CI=1 ', 'env -i ', 'cd /srv/app && ', 'nice -n 5 ');
    const suffix = fc.constantFrom('', ' 2>&1', ' | tee out.txt', ' | less', '; echo $?');
    fc.assert(
      fc.property(known, prefix, suffix, fc.array(fc.string({ maxLength: 60 }), { maxLength: 20 }), ([command, type], before, after, text) => {
        expect(classifyOutput(`${before}${command}${after}`, text)).toBe(type);
      }),
    );
  });

  it('test-runner summary lines in unrelated noise make it test results', () => {
    const noise = fc.array(fc.stringMatching(/^[a-z ]{0,40}$/), { maxLength: 100 });
    fc.assert(
      fc.property(noise, noise, (before, after) => {
        expect(typeFromText([...before, 'Tests:       1 failed, 27 passed, 28 total', ...after, 'Test Suites: 1 failed, 2 passed, 3 total'])).toBe('test-results');
      }),
    );
  });
});

describe('what is summarised at all', () => {
  it('output under 50 lines and cd/pwd/echo/which go as they are', () => {
    expect(needsSummary('npm test', 49)).toBe(false);
    expect(needsSummary('npm test', 50)).toBe(true);
    expect(needsSummary('echo "$PATH" | tr : "\\n"', 500)).toBe(true);
    expect(needsSummary('cd src && pwd', 500)).toBe(false);
    expect(needsSummary('which -a python3 node', 80)).toBe(false);
    expect(isSimpleCommand('echo hi')).toBe(true);
    // Names that only begin like a simple command are not one.
    expect(isSimpleCommand('echoserver --port 80')).toBe(false);
    expect(isSimpleCommand('cdk deploy')).toBe(false);
    expect(isSimpleCommand('cd app && npm test')).toBe(false);
    expect(isSimpleCommand('')).toBe(false);
  });
});
