import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir, runAndExit, ShellSession, writeFiles } from '../harness/shellSession';
import { registerCoreTests, registerResourceTest } from './core';
import { bashArrayPromptHome, bashPreexecHome, bashStringPromptHome, readLines, readRecords, readText } from './fixtures';

describe('bash: .bash_profile → .bashrc, set -u, ignoreboth, DEBUG trap, starship-like PS1 in a PROMPT_COMMAND string', () => {
  registerCoreTests({ shell: 'bash', makeHome: bashStringPromptHome, emacsKeys: true, promptShowsStatus: (s) => `[${s}]` });

describe('bash: re-reading the startup file', () => {
  registerResourceTest('bash', bashStringPromptHome, '~/.bashrc');
});
});

describe('bash: PROMPT_COMMAND array, ignorespace, vi mode', () => {
  registerCoreTests({ shell: 'bash', makeHome: bashArrayPromptHome, promptShowsStatus: (s) => `[${s}] vi` });
});

describe('bash: bash-preexec with a DEBUG trap set before it', () => {
  registerCoreTests({ shell: 'bash', makeHome: bashPreexecHome, emacsKeys: true, promptShowsStatus: (s) => `bp[${s}]` });
});

/** The commands of the "is integration invisible?" comparisons. */
const TYPED = ['echo one', ' echo secret', 'echo "a;b" \\\nc', 'false', 'false', 'true'];

describe('bash: what the user\'s own files record is the same with and without integration', () => {
  const homes: string[] = [];
  afterAll(() => homes.forEach(removeDir));

  async function both(makeHome: () => string): Promise<{ plain: string; integrated: string }> {
    const plain = makeHome();
    const integrated = makeHome();
    homes.push(plain, integrated);
    const a = await runAndExit({ shell: 'bash', home: plain, integration: false }, TYPED);
    const b = await runAndExit({ shell: 'bash', home: integrated }, TYPED);
    expect(a.exitCode).toBe(0);
    expect(b.exitCode).toBe(0);
    return { plain, integrated };
  }

  it('string PROMPT_COMMAND home: history, startup files read, $? and DEBUG trap counts', async () => {
    const { plain, integrated } = await both(bashStringPromptHome);
    // Default HISTFILE (~/.bash_history, not POSIX mode's ~/.sh_history), same entries.
    const history = readLines(integrated, '.bash_history');
    expect(history).toEqual(['echo one', 'echo "a;b" c', 'false', 'true', 'exit']);
    expect(history).toEqual(readLines(plain, '.bash_history'));
    expect(readText(join(integrated, '.sh_history'))).toBe('');
    // Login files: .bash_profile (which sources .bashrc), and neither .bash_login nor .profile.
    expect(readLines(integrated, 'startup.log')).toEqual(['bash_profile', 'bashrc']);
    expect(readLines(integrated, 'startup.log')).toEqual(readLines(plain, 'startup.log'));
    // The user's PROMPT_COMMAND saw the real $? every time.
    expect(readLines(integrated, 'pc_status.log')).toEqual(['0', '0', '0', '0', '1', '1', '0']);
    expect(readLines(integrated, 'pc_status.log')).toEqual(readLines(plain, 'pc_status.log'));
    // The user's DEBUG trap fired exactly as often per prompt as without us (our hooks and
    // the Enter capture are hidden from it). Startup costs it one call (__tandem_main).
    const deltas = (home: string) => {
      const counts = readLines(home, 'debug_count.log').map(Number);
      return counts.slice(1).map((count, i) => count - counts[i]!);
    };
    expect(deltas(integrated)).toEqual(deltas(plain));
    expect(deltas(integrated).length).toBe(6);
    // The user's ERR trap fires for exactly what it fires for without us.
    expect(readLines(integrated, 'err.log')).toEqual(readLines(plain, 'err.log'));
    expect(readLines(integrated, 'err.log')).toContain('err 1 ');
    const first = (home: string) => Number(readLines(home, 'debug_count.log')[0]);
    expect(first(integrated) - first(plain)).toBeLessThanOrEqual(1);
  });

  it('array PROMPT_COMMAND home: every element sees the real $?; custom HISTFILE', async () => {
    const { plain, integrated } = await both(bashArrayPromptHome);
    expect(readLines(integrated, 'pc.log')).toEqual(readLines(plain, 'pc.log'));
    expect(readLines(integrated, 'pc.log')).toContain('one 1');
    expect(readLines(integrated, 'pc.log')).toContain('two 1');
    expect(readLines(integrated, '.my_history')).toEqual(readLines(plain, '.my_history'));
    expect(readLines(integrated, '.my_history')).toEqual(['echo one', 'echo "a;b" c', 'false', 'false', 'true', 'exit']);
  });

  it("bash-preexec home: preexec gets each command once, precmd the real $?, the old DEBUG trap still runs", async () => {
    const { plain, integrated } = await both(bashPreexecHome);
    expect(readRecords(integrated, 'preexec.log')).toEqual(readRecords(plain, 'preexec.log'));
    // From `history 1`, as bash-preexec does (it drops ignorespace from HISTCONTROL, so the
    // space-prefixed command is there too); never the earlier session's last line.
    expect(readRecords(integrated, 'preexec.log')).toEqual(['echo one', ' echo secret', 'echo "a;b" c', 'false', 'false', 'true', 'exit']);
    expect(readLines(integrated, 'precmd.log')).toEqual(readLines(plain, 'precmd.log'));
    expect(readLines(integrated, 'precmd.log')).toContain('precmd 1');
    // The DEBUG trap set before bash-preexec runs raw until bash-preexec takes it over on the
    // first prompt; in that window it also sees `__tandem_main` and the two calls of our first
    // PROMPT_COMMAND entry (3 calls, at startup only). From then on it runs once per command,
    // as without us.
    const extra = readLines(integrated, 'original_debug.log').length - readLines(plain, 'original_debug.log').length;
    expect(extra).toBeGreaterThanOrEqual(0);
    expect(extra).toBeLessThanOrEqual(3);
    expect(readLines(integrated, 'original_debug.log').length).toBeGreaterThan(TYPED.length);
    expect(readLines(integrated, '.bash_history')).toEqual(readLines(plain, '.bash_history'));
  });
});

describe('bash: C without our Enter capture', () => {
  let dir: string | undefined;
  afterAll(() => dir && removeDir(dir));

  it('takes the command line from history when Enter no longer runs the capture', async () => {
    dir = makeTempDir('bash-no-capture');
    const session = await ShellSession.start({ shell: 'bash', home: dir });
    try {
      // The C of a captured line comes from the capture, without a subshell.
      expect(await session.run('echo "captured; 100%"')).toMatchObject({ command: 'echo "captured; 100%"', exitCode: 0 });
      // One whole C, then the command's own output.
      expect(session.output).toContain(`cmdline_url=echo%20"captured%3B%20100%25";cwd=${dir}\u0007captured; 100%`);
      // Enter rebound to plain accept-line: PS0's command substitution reads `history 1`.
      await session.run(`bind '"\\C-m": accept-line'`);
      const block = await session.run('echo "from history; 100%"');
      expect(block).toMatchObject({ command: 'echo "from history; 100%"', exitCode: 0, cwd: dir });
      expect(session.output).toContain(`cmdline_url=echo%20"from%20history%3B%20100%25";cwd=${dir}\u0007from history; 100%`);
    } finally {
      session.kill();
    }
  });
});

describe('bash: startup', () => {
  const homes: string[] = [];
  afterAll(() => homes.forEach(removeDir));
  const home = (files: Record<string, string>) => {
    const dir = makeTempDir('bash-startup');
    writeFiles(dir, files);
    homes.push(dir);
    return dir;
  };

  it('login shell: shopt login_shell on, POSIX mode and inherit_errexit off, same options as plain bash', async () => {
    const files = { '.bashrc': 'PS1="$ "\n' };
    const dump = (file: string) => `{ shopt -p; set +o; echo "login=$(shopt -q login_shell && echo yes)"; } > ${file}`;
    const plainHome = home(files);
    const integratedHome = home(files);
    await runAndExit({ shell: 'bash', home: plainHome, integration: false }, [dump('opts.txt')]);
    await runAndExit({ shell: 'bash', home: integratedHome }, [dump('opts.txt')]);
    const options = readText(join(integratedHome, 'opts.txt'));
    expect(options).toContain('login=yes');
    expect(options).toContain('set +o posix');
    expect(options).toContain('shopt -u inherit_errexit');
    // Prompt-related options are ours to change; everything else must match exactly.
    const strip = (text: string) => text.split('\n').filter((line) => !/functrace|errtrace/.test(line));
    expect(strip(options)).toEqual(strip(readText(join(plainHome, 'opts.txt'))));
  });

  it('non-login shell reads ~/.bashrc, not ~/.bash_profile', async () => {
    const dir = home({
      '.bash_profile': 'echo bash_profile >> ~/startup.log\n',
      '.bashrc': 'echo bashrc >> ~/startup.log\n',
    });
    const session = await ShellSession.start({ shell: 'bash', home: dir, login: false });
    try {
      const block = await session.run('shopt -q login_shell; echo "login=$?" > ~/login.txt');
      expect(block.exitCode).toBe(0);
      expect(readText(join(dir, 'login.txt'))).toBe('login=1\n');
      expect(readLines(dir, 'startup.log')).toEqual(['bashrc']);
    } finally {
      session.kill();
    }
  });

  it('--noprofile and --norc are honoured', async () => {
    const files = {
      '.bash_profile': 'echo bash_profile >> ~/startup.log\n',
      '.bashrc': 'echo bashrc >> ~/startup.log\n',
    };
    for (const [login, flag] of [[true, '--noprofile'], [false, '--norc']] as const) {
      const dir = home(files);
      const session = await ShellSession.start({ shell: 'bash', home: dir, login, extraArgs: [flag] });
      try {
        expect((await session.run('true')).exitCode).toBe(0);
        expect(readLines(dir, 'startup.log')).toEqual([]);
      } finally {
        session.kill();
      }
    }
  });

  it('an unreadable startup file gives a clear message and a working, integrated shell', async () => {
    const dir = home({ '.bash_profile': '. ~/.bashrc\n' });
    mkdirSync(join(dir, '.bashrc'));
    const session = await ShellSession.start({ shell: 'bash', home: dir });
    try {
      expect(session.output).toContain(`${join(dir, '.bashrc')}: is a directory`);
      const block = await session.run('echo still alive');
      expect(block).toMatchObject({ command: 'echo still alive', exitCode: 0, trusted: true });
    } finally {
      session.kill();
    }
  });

  it.skipIf(process.getuid?.() === 0)('a startup file without read permission (chmod 000) is reported', async () => {
    // As root every file is readable, so this case only exists for ordinary users.
    const { chmodSync } = await import('node:fs');
    const dir = home({ '.bash_profile': 'echo secret\n' });
    chmodSync(join(dir, '.bash_profile'), 0o000);
    const session = await ShellSession.start({ shell: 'bash', home: dir });
    try {
      expect(session.output).toMatch(/cannot read .*\.bash_profile|Permission denied/);
      expect((await session.run('true')).exitCode).toBe(0);
    } finally {
      session.kill();
    }
  });

  it('ENV and HISTFILE the user had are restored; unset ones stay unset and unexported', async () => {
    const dir = home({ 'env-file.sh': '', '.bashrc': '' });
    const session = await ShellSession.start({ shell: 'bash', home: dir, env: { ENV: join(dir, 'env-file.sh') } });
    try {
      await session.run(`{ echo "ENV=$ENV"; declare -p HISTFILE; } > ${join(dir, 'out.txt')}`);
      const out = readText(join(dir, 'out.txt'));
      expect(out).toContain(`ENV=${join(dir, 'env-file.sh')}`);
      expect(out).toContain(`declare -- HISTFILE="${join(dir, '.bash_history')}"`);
    } finally {
      session.kill();
    }
  });

  it('the nonce file is gone once the shell is up', async () => {
    const dir = home({ '.bashrc': '' });
    const session = await ShellSession.start({ shell: 'bash', home: dir });
    try {
      const path = session.launch.env.TANDEM_BOOTSTRAP!;
      const { existsSync } = await import('node:fs');
      expect(existsSync(path)).toBe(false);
    } finally {
      session.kill();
    }
  });
});

describe('bash inside bash, zsh inside bash', () => {
  let session: ShellSession;
  let dir: string;
  beforeAll(async () => {
    dir = makeTempDir('bash-nest');
    writeFiles(dir, { '.bashrc': 'PS1="outer$ "\n' });
    session = await ShellSession.start({ shell: 'bash', home: dir });
  });
  afterAll(() => {
    session?.kill();
    removeDir(dir);
  });

  it('the outer block runs until the nested shell exits; inner commands make no blocks', async () => {
    const before = session.blocks().length;
    await session.type('/usr/bin/zsh -f');
    session.write('\r');
    await session.waitUntil(() => session.state === 'EXECUTING', 5_000, 'zsh to start');
    const started = session.blocks().at(-1)!.outputOffset;
    await session.waitUntil(() => session.editorReadySince(started), 10_000, "zsh's line editor");
    session.write('echo inner; false\r');
    await session.waitUntil(() => session.textSince(started).includes('\ninner'), 5_000, 'the inner command to run');
    // Inner commands make no marks of ours: the outer block is still running.
    expect(session.state).toBe('EXECUTING');
    const finished = session.finishedBlocks().length;
    session.write('exit 4\r');
    await session.waitUntil(() => session.finishedBlocks().length > finished, 5_000, 'zsh to exit');
    expect(session.blocks().length).toBe(before + 1);
    expect(session.blocks()[before]).toMatchObject({ command: '/usr/bin/zsh -f', exitCode: 4 });
  });
});
