import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir, runAndExit, ShellSession, writeFiles } from '../harness/shellSession';
import { registerCoreTests, registerResourceTest } from './core';
import { readLines, readRecords, readText, zshHostileHome } from './fixtures';

describe('zsh: ZDOTDIR set in .zshenv, nounset, prompt_subst, p10k-like precmd, precmd/preexec_functions preset', () => {
  registerCoreTests({ shell: 'zsh', makeHome: zshHostileHome, emacsKeys: true, promptShowsStatus: (s) => `[${s}]` });

describe('zsh: re-reading the startup file', () => {
  registerResourceTest('zsh', zshHostileHome, '$ZDOTDIR/.zshrc');
});
});

const TYPED = ['echo one', ' echo secret', 'echo "a;b" \\\nc', 'false', 'false', 'true'];

describe("zsh: what the user's own files record is the same with and without integration", () => {
  const homes: string[] = [];
  afterAll(() => homes.forEach(removeDir));

  it('history, startup order, precmd $? and preexec text', async () => {
    const plain = zshHostileHome();
    const integrated = zshHostileHome();
    homes.push(plain, integrated);
    expect((await runAndExit({ shell: 'zsh', home: plain, integration: false }, TYPED)).exitCode).toBe(0);
    expect((await runAndExit({ shell: 'zsh', home: integrated }, TYPED)).exitCode).toBe(0);

    // The user's files are read from the ZDOTDIR their .zshenv set, in zsh's order.
    expect(readLines(integrated, 'startup.log')).toEqual(['zshenv', 'zprofile', 'zshrc', 'zlogin']);
    expect(readLines(integrated, 'startup.log')).toEqual(readLines(plain, 'startup.log'));

    const history = readText(join(integrated, '.config/zsh/.zsh_history'));
    expect(history).toBe(readText(join(plain, '.config/zsh/.zsh_history')));
    expect(history).toContain('echo one\n');
    expect(history).not.toContain('secret');
    expect(history).not.toMatch(/tandem|source|133;/);

    expect(readLines(integrated, 'precmd.log')).toEqual(readLines(plain, 'precmd.log'));
    expect(readLines(integrated, 'precmd.log')).toContain('precmd 1');
    expect(readRecords(integrated, 'preexec.log')).toEqual(readRecords(plain, 'preexec.log'));
    expect(readRecords(integrated, 'preexec.log')).toEqual([...TYPED, 'exit']);
    // The user's ZERR trap fires for their failed commands only, never for a hook of ours.
    expect(readLines(integrated, 'zerr.log')).toEqual(readLines(plain, 'zerr.log'));
    expect(readLines(integrated, 'zerr.log')).toEqual(['zerr 1', 'zerr 1']);
  });
});

describe('zsh: startup', () => {
  const homes: string[] = [];
  afterAll(() => homes.forEach(removeDir));
  const home = (files: Record<string, string>) => {
    const dir = makeTempDir('zsh-startup');
    writeFiles(dir, files);
    homes.push(dir);
    return dir;
  };
  const dumpZdotdir = (file: string) => `print -r -- "\${ZDOTDIR-unset} \${(t)ZDOTDIR}" > ${file}`;

  it('after startup ZDOTDIR is what the user left: set and exported by their .zshenv', async () => {
    const dir = zshHostileHome();
    homes.push(dir);
    const session = await ShellSession.start({ shell: 'zsh', home: dir });
    try {
      await session.run(dumpZdotdir('~/zdotdir.txt'));
      expect(readText(join(dir, 'zdotdir.txt'))).toBe(`${join(dir, '.config/zsh')} scalar-export\n`);
    } finally {
      session.kill();
    }
  });

  it('after startup ZDOTDIR is unset when the user never set it', async () => {
    const dir = home({ '.zshrc': 'echo zshrc >> ~/startup.log\n' });
    const session = await ShellSession.start({ shell: 'zsh', home: dir });
    try {
      await session.run(dumpZdotdir('~/zdotdir.txt'));
      expect(readText(join(dir, 'zdotdir.txt'))).toBe('unset \n');
      expect(readLines(dir, 'startup.log')).toEqual(['zshrc']);
    } finally {
      session.kill();
    }
  });

  it("a ZDOTDIR from Tandem's own environment is honoured", async () => {
    const dir = home({ 'zdot/.zshrc': 'echo from-zdot >> ~/startup.log\n', '.zshrc': 'echo WRONG >> ~/startup.log\n' });
    const session = await ShellSession.start({ shell: 'zsh', home: dir, env: { ZDOTDIR: join(dir, 'zdot') } });
    try {
      await session.run(dumpZdotdir('~/zdotdir.txt'));
      expect(readLines(dir, 'startup.log')).toEqual(['from-zdot']);
      expect(readText(join(dir, 'zdotdir.txt'))).toBe(`${join(dir, 'zdot')} scalar-export\n`);
    } finally {
      session.kill();
    }
  });

  it('non-login: .zshenv and .zshrc only, ZDOTDIR still the user\'s', async () => {
    const dir = zshHostileHome();
    homes.push(dir);
    const session = await ShellSession.start({ shell: 'zsh', home: dir, login: false });
    try {
      const block = await session.run(dumpZdotdir('~/zdotdir.txt'));
      expect(block.exitCode).toBe(0);
      expect(readLines(dir, 'startup.log')).toEqual(['zshenv', 'zshrc']);
      expect(readText(join(dir, 'zdotdir.txt'))).toBe(`${join(dir, '.config/zsh')} scalar-export\n`);
    } finally {
      session.kill();
    }
  });

  it('an unreadable .zshrc gives a clear message and a working, integrated shell', async () => {
    const dir = home({});
    mkdirSync(join(dir, '.zshrc'));
    const session = await ShellSession.start({ shell: 'zsh', home: dir });
    try {
      expect(session.output).toContain(`tandem: ${join(dir, '.zshrc')} is a directory`);
      expect(await session.run('echo still alive')).toMatchObject({ command: 'echo still alive', exitCode: 0, trusted: true });
    } finally {
      session.kill();
    }
  });

  it('a prompt the user replaces later still gets its marks', async () => {
    const dir = home({ '.zshrc': 'PROMPT="old%# "\n' });
    const session = await ShellSession.start({ shell: 'zsh', home: dir });
    try {
      await session.run("PROMPT='brand-new> '");
      const block = await session.run('echo after');
      expect(block.command).toBe('echo after');
      const { line, x } = await session.cursor();
      expect(line.slice(0, x)).toBe('brand-new> ');
    } finally {
      session.kill();
    }
  });

  it('bash started inside zsh is not integrated; the zsh block lasts until it exits', async () => {
    const dir = home({ '.zshrc': 'PROMPT="z%# "\n', '.bashrc': 'PS1="inner$ "\n' });
    const session = await ShellSession.start({ shell: 'zsh', home: dir });
    try {
      const before = session.blocks().length;
      const from = session.marks.length;
      await session.type('bash');
      session.write('\r');
      await session.waitUntil(() => session.state === 'EXECUTING', 5_000, 'bash to start');
      await session.waitForOutput(/inner\$ $/);
      session.write('echo "$TERM_PROGRAM ${TANDEM_BOOTSTRAP-none} ${ENV-noenv}" > ~/inner.txt; false\r');
      await session.waitForOutput(/inner\$ $/);
      expect(session.state).toBe('EXECUTING');
      session.write('exit 5\r');
      await session.waitUntil(() => session.promptReadySince(from) && session.finishedBlocks().length > before, 5_000, 'bash to exit');
      expect(session.blocks().length).toBe(before + 1);
      expect(session.blocks()[before]).toMatchObject({ command: 'bash', exitCode: 5 });
      expect(readText(join(dir, 'inner.txt'))).toBe('Tandem none noenv\n');
    } finally {
      session.kill();
    }
  });
});
