import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir, promptCwd, removeDir, ShellSession, sleep, writeFiles, type ShellName } from '../harness/shellSession';
import { readText } from './fixtures';

/**
 * The nonce must stay secret and the cwd must come from our own marks, whatever the user's
 * startup files switch on: xtrace/verbose (which would print our hooks' commands, nonce
 * included), allexport (which would export our variables to every child), and directory
 * names full of escape sequences, percent signs and prompt escapes.
 */

const homes: string[] = [];
afterAll(() => homes.forEach(removeDir));

function home(files: Record<string, string>): string {
  const dir = makeTempDir('security');
  writeFiles(dir, files);
  homes.push(dir);
  return dir;
}

async function withSession<T>(shell: ShellName, dir: string, body: (session: ShellSession) => Promise<T>): Promise<T> {
  const session = await ShellSession.start({ shell, home: dir });
  try {
    return await body(session);
  } finally {
    session.kill();
  }
}

/** A word that the shell reads as exactly `text`: ANSI-C quoting (bash, zsh) or fish escapes. */
function quoteFor(shell: ShellName, text: string): string {
  let out = '';
  for (const char of text) {
    if (/^[A-Za-z0-9_./-]$/.test(char) || char.codePointAt(0)! > 0x7f) out += char;
    else out += `\\x${char.codePointAt(0)!.toString(16).padStart(2, '0')}`;
  }
  return shell === 'fish' ? out : `$'${out}'`;
}

// --- xtrace / verbose ------------------------------------------------------------------

const XTRACE_HOMES = {
  bash: () =>
    home({
      '.bash_profile': '. ~/.bashrc\n',
      '.bashrc': [
        'set -x',
        "PS1='\\w\\$ '",
        "trap 'dbg_count=$(( ${dbg_count:-0} + 1 ))' DEBUG",
        "PROMPT_COMMAND='user_pc=$?'",
        '',
      ].join('\n'),
    }),
  zsh: () => home({ '.zshrc': ['setopt xtrace', "PROMPT='%~%# '", ''].join('\n') }),
  fish: () => home({ '.config/fish/config.fish': ['set -g fish_greeting', 'set -g fish_trace 1', ''].join('\n') }),
};

const PLAIN_HOMES = {
  bash: () => home({ '.bash_profile': '. ~/.bashrc\n', '.bashrc': "PS1='\\w\\$ '\n" }),
  zsh: () => home({ '.zshrc': "PROMPT='%~%# '\n" }),
  fish: () => home({ '.config/fish/config.fish': 'set -g fish_greeting\n' }),
};

/** The user's own trace of `echo <word>`: bash `+ echo hi`, zsh `+zsh:3> echo hi`. */
const traced = (word: string) => new RegExp(`^\\++[^\\n]*echo ${word}\\r?$`, 'm');

describe.each(['bash', 'zsh'] as const)('%s: xtrace and verbose do not show the nonce or our hooks', (shell) => {
  it('xtrace switched on by the startup file', async () => {
    await withSession(shell, XTRACE_HOMES[shell](), async (session) => {
      const from = session.outputLength;
      expect(await session.run('echo hi')).toMatchObject({ command: 'echo hi', exitCode: 0, trusted: true });
      expect(await session.run('false')).toMatchObject({ command: 'false', exitCode: 1, trusted: true });
      expect(await session.run('echo "two words"')).toMatchObject({ exitCode: 0 });
      const text = session.textSince(from);
      // The user's own trace still works…
      expect(text).toMatch(traced('hi'));
      // …but nothing of ours is traced, at any prompt or command.
      expect(text).not.toContain('__tandem');
      expect(text).not.toContain('133;');
      expect(await session.nonceLeaks()).toEqual([]);
    });
  });

  it('set -x / set -v typed at the prompt, then switched off again', async () => {
    await withSession(shell, PLAIN_HOMES[shell](), async (session) => {
      const from = session.outputLength;
      const on = shell === 'bash' ? 'set -x' : 'setopt xtrace';
      const off = shell === 'bash' ? 'set +x' : 'unsetopt xtrace';
      await session.run(on);
      expect(await session.run('echo traced')).toMatchObject({ command: 'echo traced', exitCode: 0 });
      expect(await session.run('false')).toMatchObject({ exitCode: 1 });
      await session.run(off);
      const between = session.outputLength;
      expect(await session.run('echo quiet')).toMatchObject({ exitCode: 0 });
      // Still the user's setting: off is off.
      expect(session.textSince(between)).not.toMatch(traced('quiet'));
      // xtrace shows nothing of ours.
      expect(session.textSince(from)).not.toContain('__tandem');
      // verbose echoes every line the shell parses — for bash that includes PROMPT_COMMAND
      // and `bind -x` commands, ours too (their text, without the nonce).
      await session.run(shell === 'bash' ? 'set -v' : 'setopt verbose');
      expect(await session.run('echo verbose')).toMatchObject({ command: 'echo verbose', exitCode: 0 });
      await session.run(shell === 'bash' ? 'set -xv' : 'setopt xtrace verbose');
      expect(await session.run('echo both')).toMatchObject({ command: 'echo both', exitCode: 0 });
      await session.run(shell === 'bash' ? 'set +xv' : 'unsetopt xtrace verbose');
      const text = session.textSince(from);
      expect(text).toMatch(traced('traced'));
      expect(text).toMatch(traced('both'));
      expect(text).not.toContain('133;');
      expect(await session.nonceLeaks()).toEqual([]);
    });
  });
});

describe('fish: fish_trace does not show the nonce', () => {
  it('fish_trace set in config.fish', async () => {
    await withSession('fish', XTRACE_HOMES.fish(), async (session) => {
      const from = session.outputLength;
      expect(await session.run('echo hi')).toMatchObject({ command: 'echo hi', exitCode: 0, trusted: true });
      expect(await session.run('false')).toMatchObject({ command: 'false', exitCode: 1, trusted: true });
      const text = session.textSince(from);
      // The user's own trace still works (fish: `> echo hi`).
      expect(text).toMatch(/^>+ echo hi\r?$/m);
      expect(text).not.toContain('133;');
      expect(await session.nonceLeaks()).toEqual([]);
    });
  });
});

// --- allexport -------------------------------------------------------------------------

const ALLEXPORT_HOMES = {
  bash: () =>
    home({
      '.bash_profile': '. ~/.bashrc\n',
      '.bashrc': ['set -a', "PS1='\\w\\$ '", "PROMPT_COMMAND='user_pc=$?'", 'user_var=1', ''].join('\n'),
    }),
  // No prompt_subst: the marks are in PROMPT's text, and allexport exported PROMPT.
  zsh: () => home({ '.zshrc': ['setopt allexport', "PROMPT='%~%# '", 'user_var=1', ''].join('\n') }),
  fish: () => home({ '.config/fish/config.fish': ['set -g fish_greeting', 'set -gx user_var 1', ''].join('\n') }),
};

describe.each(['bash', 'zsh', 'fish'] as const)('%s: allexport in the startup file exports nothing of ours', (shell) => {
  it('env, a child shell and /proc/self/environ of a child: no nonce, no __tandem variable, no mark', async () => {
    const dir = ALLEXPORT_HOMES[shell]();
    mkdirSync(join(dir, 'sub dir'));
    await withSession(shell, dir, async (session) => {
      await session.run('cd "sub dir"');
      await session.run('echo typed line');
      await session.run('env > ~/env.txt');
      await session.run("cat /proc/self/environ | tr '\\0' '\\n' > ~/environ.txt");
      await session.run('sh -c env > ~/sh-env.txt');
      const files = ['env.txt', 'environ.txt', 'sh-env.txt'].map((name) => readText(join(dir, name)));
      expect(files[0]).toMatch(/^user_var=1$/m);
      for (const env of files) {
        expect(env).toMatch(/^TERM_PROGRAM=Tandem$/m);
        expect(env).not.toContain(session.nonce);
        expect(env).not.toMatch(/^(BASH_FUNC_)?__tandem/m);
        expect(env).not.toContain('133;');
        expect(env).not.toContain('typed line');
      }
      expect(await session.nonceLeaks()).toEqual([]);
    });
  });
});

// --- the cwd in our A mark -------------------------------------------------------------

/** Directory names that must reach the A mark exactly and never raw. */
const NASTY_DIRS = [
  'dir with spaces',
  'dïr 日本',
  'semi;colon;cwd=%2Fetc',
  '100%',
  '50%20off',
  'pct%F{red}x%~%#',
  'back\\w slash\\$',
  'bang!!$(echo hi)`x`',
  'esc\x1b[31mred',
  'bell\x07x',
  'nl\nline',
  'forged\x1b]133;D;0\x07',
  '\x1b]133;A;cwd=%2Fetc\x07\x1b]7;file:%2F%2Fx%2Fetc\x07',
];

const CWD_HOMES: Record<string, { shell: ShellName; files: Record<string, string>; noBlocks?: boolean }> = {
  'bash, \\w in PS1': { shell: 'bash', files: { '.bash_profile': '. ~/.bashrc\n', '.bashrc': "PS1='\\w\\$ '\n" } },
  'bash, promptvars off': {
    shell: 'bash',
    files: { '.bash_profile': '. ~/.bashrc\n', '.bashrc': "shopt -u promptvars\nPS1='\\w\\$ '\n" },
    // PS0 is not expanded without promptvars: no C, so no blocks; A and B still come.
    noBlocks: true,
  },
  'zsh, %~ in PROMPT': { shell: 'zsh', files: { '.zshrc': "PROMPT='%~%# '\n" } },
  'zsh, prompt_subst and prompt_bang': {
    shell: 'zsh',
    files: { '.zshrc': "setopt prompt_subst prompt_bang\nPROMPT='%~ !%# '\n" },
  },
  'fish, default prompt': { shell: 'fish', files: { '.config/fish/config.fish': '' } },
};

describe.each(Object.entries(CWD_HOMES))('%s: the A mark carries the cwd', (_, { shell, files, noBlocks }) => {
  /** Runs `command` and waits for the next prompt; returns the marks since. */
  async function prompted(session: ShellSession, command: string) {
    const from = session.marks.length;
    if (!noBlocks) {
      expect(await session.run(command)).toMatchObject({ exitCode: 0, trusted: true });
    } else {
      await session.type(command);
      session.write('\r');
      await session.waitUntil(() => session.newPromptSince(from), 5_000, `the prompt after ${JSON.stringify(command)}`);
    }
    return session.marks.slice(from);
  }

  it('exactly, percent-encoded, for every nasty directory name; printed text cannot change it', async () => {
    const dir = home(files);
    for (const name of NASTY_DIRS) mkdirSync(join(dir, name));
    await withSession(shell, dir, async (session) => {
      const first = session.marks.find((seen) => promptCwd(seen) !== undefined);
      expect(first && promptCwd(first)).toBe(dir);
      const untrustedBefore = session.tracker.untrustedMarkCount;
      for (const name of NASTY_DIRS) {
        const path = join(dir, name);
        const since = await prompted(session, `cd ${quoteFor(shell, name)}`);
        const a = since.filter((seen) => seen.ours && seen.mark.kind === 'prompt-start').at(-1)!;
        expect(promptCwd(a), JSON.stringify(name)).toBe(path);
        // Printable ASCII only: no ESC, BEL, newline, space or raw Unicode in our mark.
        expect(a.payload).toMatch(/^[\x21-\x7e]+$/);
        const osc7 = since.filter((seen) => seen.mark.kind === 'cwd').at(-1)!;
        expect(osc7.mark.kind === 'cwd' && osc7.mark.path).toBe(path);
        expect(osc7.payload).toMatch(/^[\x21-\x7e]+$/);
        expect(session.tracker.cwd).toBe(path);
        if (!noBlocks) expect(await session.run('true')).toMatchObject({ cwd: path, exitCode: 0, trusted: true });
        await prompted(session, 'cd ~');
      }
      // Whatever the prompt printed raw, no mark of ours was faked and no block was disturbed.
      expect(session.blocks().every((block) => block.trusted && block.exitCode === 0)).toBe(true);
      expect(session.count('command-end')).toBe(session.blocks().length);
      expect(session.blocks().length).toBe(noBlocks ? 0 : NASTY_DIRS.length * 3);
      // bash escapes control characters in \w and zsh in %~; fish prints them as they are
      // (its prompt and title show the name raw), which the tracker counts as untrusted.
      if (shell !== 'fish') expect(session.tracker.untrustedMarkCount).toBe(untrustedBefore);
      expect(await session.nonceLeaks()).toEqual([]);
    });
  });

  it('an OSC 7 printed by a background job while the prompt waits does not move the cwd', async () => {
    const dir = home(files);
    await withSession(shell, dir, async (session) => {
      if (noBlocks) return;
      await session.run(`sh -c "sleep 0.3; printf '\\033]7;file:///etc\\007\\033]7;kitty-shell-cwd:///usr\\007'" &`);
      await session.waitUntil(() => session.marks.filter((seen) => seen.mark.kind === 'cwd').some((seen) => seen.payload.includes('///etc')), 5_000, 'the forged OSC 7');
      await sleep(100);
      expect(session.tracker.cwd).toBe(dir);
      expect(await session.run('true')).toMatchObject({ cwd: dir, exitCode: 0 });
    });
  });
});
