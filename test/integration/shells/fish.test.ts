import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir, runAndExit, ShellSession, writeFiles } from '../harness/shellSession';
import { registerCoreTests, registerResourceTest } from './core';
import { fishHostileHome, readLines, readRecords, readText } from './fixtures';

describe("fish: config.fish with a two-line fish_prompt and the user's own preexec/postexec handlers", () => {
  registerCoreTests({ shell: 'fish', makeHome: fishHostileHome, emacsKeys: true, promptShowsStatus: (s) => `[${s}] >` });

describe('fish: re-reading the startup file', () => {
  registerResourceTest('fish', fishHostileHome, '~/.config/fish/config.fish');
});
});

const TYPED = ['echo one', ' echo secret', 'echo "a;b" \\\nc', 'false', 'false', 'true'];

/** fish_history entries, without their timestamps. */
function fishHistory(home: string): string {
  return readText(join(home, '.local/share/fish/fish_history'))
    .split('\n')
    .filter((line) => !line.startsWith('  when:'))
    .join('\n');
}

describe("fish: what the user's own files record is the same with and without integration", () => {
  const homes: string[] = [];
  afterAll(() => homes.forEach(removeDir));

  it('history, config read once, handlers see the real command and status', async () => {
    const plain = fishHostileHome();
    const integrated = fishHostileHome();
    homes.push(plain, integrated);
    expect((await runAndExit({ shell: 'fish', home: plain, integration: false }, TYPED)).exitCode).toBe(0);
    expect((await runAndExit({ shell: 'fish', home: integrated }, TYPED)).exitCode).toBe(0);

    expect(readLines(integrated, 'startup.log')).toEqual(['config']);
    const history = fishHistory(integrated);
    expect(history).toBe(fishHistory(plain));
    expect(history).toContain('- cmd: echo one');
    expect(history).not.toContain('secret');
    expect(history).not.toMatch(/tandem|source|133;/);
    expect(readRecords(integrated, 'preexec.log')).toEqual(readRecords(plain, 'preexec.log'));
    expect(readRecords(integrated, 'preexec.log')).toEqual([...TYPED, 'exit']);
    expect(readLines(integrated, 'postexec.log')).toEqual(readLines(plain, 'postexec.log'));
    expect(readLines(integrated, 'postexec.log')).toContain('postexec 1');
  });
});

describe('fish: startup and prompt', () => {
  const homes: string[] = [];
  afterAll(() => homes.forEach(removeDir));
  const home = (files: Record<string, string>) => {
    const dir = makeTempDir('fish-startup');
    writeFiles(dir, files);
    homes.push(dir);
    return dir;
  };

  it('login and non-login both read config.fish; status is-login tells them apart', async () => {
    for (const login of [true, false]) {
      const dir = home({ '.config/fish/config.fish': 'status is-login; and echo login >> ~/startup.log; or echo nologin >> ~/startup.log\n' });
      const session = await ShellSession.start({ shell: 'fish', home: dir, login });
      try {
        expect((await session.run('true')).exitCode).toBe(0);
        expect(readLines(dir, 'startup.log')).toEqual([login ? 'login' : 'nologin']);
      } finally {
        session.kill();
      }
    }
  });

  it('an unreadable config.fish gives a message and a working, integrated shell', async () => {
    const dir = home({});
    mkdirSync(join(dir, '.config/fish/config.fish'), { recursive: true });
    const session = await ShellSession.start({ shell: 'fish', home: dir });
    try {
      expect(session.output).toContain(`'${join(dir, '.config/fish/config.fish')}' is not a file`);
      expect(await session.run('echo still alive')).toMatchObject({ command: 'echo still alive', exitCode: 0, trusted: true });
    } finally {
      session.kill();
    }
  });

  it('a fish_prompt redefined at the prompt is wrapped again (B still follows it)', async () => {
    const dir = home({ '.config/fish/config.fish': 'set -g fish_greeting\n' });
    const session = await ShellSession.start({ shell: 'fish', home: dir });
    try {
      await session.run("function fish_prompt; echo -n 'brand-new> '; end");
      const from = session.marks.length;
      await session.run('echo after');
      const { line, x } = await session.cursor();
      expect(line.slice(0, x)).toBe('brand-new> ');
      // The B of the new prompt came after the prompt text was drawn.
      const lastB = session.marks.filter((seen, i) => i >= from && seen.ours && seen.mark.kind === 'input-start').at(-1)!;
      const before = Buffer.from(session.output, 'utf8').subarray(0, lastB.offset).toString('utf8');
      expect(before.replace(/\x1b\][^\x07]*\x07/g, '').endsWith('brand-new> ')).toBe(true);
    } finally {
      session.kill();
    }
  });
});
