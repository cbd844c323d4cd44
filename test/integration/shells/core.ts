import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { promptCwd, removeDir, ShellSession, SHELLS, sleep, type ShellName, type SeenMark } from '../harness/shellSession';
import { readText } from './fixtures';

/**
 * Behaviour every integrated shell must show, registered inside the caller's `describe`
 * for one shell and one hostile home. One shell session serves the whole list, in order.
 */

export interface CoreOptions {
  shell: ShellName;
  makeHome: () => string;
  /** Emacs-style line editing keys (Ctrl+A) are available. */
  emacsKeys?: boolean;
  /** Text the user's prompt shows after a command that exited with `status`. */
  promptShowsStatus?: (status: number) => string;
}

const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

export function registerCoreTests(options: CoreOptions): void {
  const { shell } = options;
  let session: ShellSession;
  let home: string;

  beforeAll(async () => {
    home = options.makeHome();
    session = await ShellSession.start({ shell, home });
  });
  afterAll(() => {
    session?.kill();
    if (home) removeDir(home);
  });

  it('reports the exact command line: quotes, backslashes, Unicode', async () => {
    for (const command of [
      `echo 'single'"double\\"quote" back\\\\slash`,
      'echo héllo 日本',
      'echo 100% done; echo "semi;colon"',
    ]) {
      const block = await session.run(command);
      expect(block.command).toBe(command);
      expect(block.trusted).toBe(true);
      expect(block.exitCode).toBe(0);
    }
  });

  it('reports a command with a continuation line exactly as typed', async () => {
    const command = 'echo "a;b" \\\nc';
    const block = await session.run(command);
    expect(block.command).toBe(command);
    expect(block.exitCode).toBe(0);
  });

  it('reports a pasted command containing a tab', async () => {
    // fish's editor has no way to hold a tab (Tab completes, paste drops it).
    if (shell === 'fish') return;
    const command = "printf '%s|%s\\n' one\ttwo";
    const block = await session.run(`${PASTE_START}${command}${PASTE_END}`);
    expect(block.command).toBe(command);
    expect(session.output).toContain('one|two');
  });

  it('a pasted multi-line command is one block with the last exit code', async () => {
    const command = 'echo first\necho second; false';
    const before = session.blocks().length;
    const block = await session.run(`${PASTE_START}${command}${PASTE_END}`);
    expect(block.command).toBe(command);
    expect(block.exitCode).toBe(1);
    expect(session.blocks().length).toBe(before + 1);
  });

  it('reports a 5,000-character command exactly', async () => {
    const words: string[] = [];
    for (let i = 0; words.join(' ').length < 5_000; i++) words.push(i % 7 === 0 ? `wörd${i}` : `w${i},`);
    const command = `: ${words.join(' ')}`.slice(0, 5_000).replace(/ $/, 'x');
    expect(command.length).toBe(5_000);
    // Pasted: fish redraws the whole buffer on every keystroke, which takes minutes here.
    const block = await session.run(`${PASTE_START}${command}${PASTE_END}`, 20_000);
    expect(block.command).toBe(command);
    expect(block.command.length).toBe(5_000);
    expect(block.exitCode).toBe(0);
  });

  it('reports a command that starts with a space (kept out of history)', async () => {
    const block = await session.run(' echo spaced out');
    expect(block.command).toBe(' echo spaced out');
  });

  it('reports exit codes 0, 1 and 127', async () => {
    expect((await session.run('true')).exitCode).toBe(0);
    expect((await session.run('false')).exitCode).toBe(1);
    const missing = await session.run('no-such-command-tandem-test');
    expect(missing.exitCode).toBe(127);
    expect(missing.command).toBe('no-such-command-tandem-test');
  });

  it('reports 130 when Ctrl+C interrupts a running command', async () => {
    const finished = session.finishedBlocks().length;
    const from = session.marks.length;
    await session.type('sleep 10');
    session.write('\r');
    await session.waitUntil(() => session.state === 'EXECUTING', 5_000, 'sleep to start');
    await sleep(300);
    session.write('\x03');
    await session.waitUntil(
      () => session.finishedBlocks().length > finished && session.promptReadySince(from),
      5_000,
      'the interrupted block to finish',
    );
    const block = session.finishedBlocks()[finished]!;
    expect(block.command).toBe('sleep 10');
    expect(block.exitCode).toBe(130);
    expect(block.endedAt! - block.startedAt).toBeLessThan(9_000);
  });

  it("the user's prompt still sees the real exit status", async () => {
    if (!options.promptShowsStatus) return;
    expect((await session.run('sh -c "exit 3"')).exitCode).toBe(3);
    const lines = await session.screenLines();
    expect(lines[lines.length - 1]).toContain(options.promptShowsStatus(3));
  });

  it("the next command line sees the previous one's status and last argument ($? / $_)", async () => {
    await session.run('sh -c "exit 4"');
    const status = await session.run(shell === 'fish' ? 'echo "status=$status"' : 'echo "status=$?"');
    expect(status.exitCode).toBe(0);
    if (shell !== 'fish') {
      await session.run(': the-last-argument');
      await session.run('echo "last=$_"');
    }
    const lines = await session.screenLines();
    expect(lines).toContain('status=4');
    if (shell !== 'fish') expect(lines).toContain('last=the-last-argument');
  });

  it('reports the cwd after cd into a directory with spaces, then one with Unicode', async () => {
    const spaced = join(home, 'dir with spaces');
    const unicode = join(home, 'dïr 日本');
    mkdirSync(spaced);
    mkdirSync(unicode);
    const cd = await session.run('cd "dir with spaces"');
    expect(cd.cwd).toBe(home);
    const next = await session.run('pwd');
    expect(next.cwd).toBe(spaced);
    expect(session.tracker.cwd).toBe(spaced);
    await session.run(`cd "${unicode}"`);
    const after = await session.run('true');
    expect(after.cwd).toBe(unicode);
    // The cwd travels in our A mark (OSC 7 is only for other tools): percent signs and
    // semicolons, which are the mark's own syntax (and zsh's prompt escapes), too.
    const percent = join(home, '50%20off;x=%~');
    mkdirSync(percent);
    const from = session.marks.length;
    await session.run(`cd '${percent}'`);
    const a = session.marks.slice(from).filter((seen) => seen.ours && seen.mark.kind === 'prompt-start').at(-1)!;
    expect(promptCwd(a)).toBe(percent);
    expect(session.tracker.cwd).toBe(percent);
    await session.run('cd ~');
    expect(session.tracker.cwd).toBe(home);
    expect(await session.nonceLeaks()).toEqual([]);
  });

  it('ignores forged marks printed by a program', async () => {
    const before = session.blocks().length;
    const untrusted = session.tracker.untrustedMarkCount;
    const command = "printf '\\e]133;D;0\\a\\e]133;A\\a\\e]133;C;cmdline_url=evil\\a\\e]133;C;tandem=0000000000000000;cmdline_url=evil2\\a'";
    const block = await session.run(command);
    expect(block.command).toBe(command);
    expect(block.exitCode).toBe(0);
    expect(session.blocks().length).toBe(before + 1);
    expect(session.tracker.untrustedMarkCount - untrusted).toBe(4);
    expect(session.blocks().some((b) => b.command.startsWith('evil'))).toBe(false);
    expect(session.blocks().every((b) => b.trusted)).toBe(true);
  });

  it('marks each prompt in order: D, OSC 7, A, B', async () => {
    const from = session.marks.length;
    await session.run('echo order');
    const kinds = kindsOf(session.marks.slice(from));
    const start = kinds.indexOf('command-start');
    expect(start).toBeGreaterThanOrEqual(0);
    expect(kinds.slice(start, start + 5)).toEqual(['command-start', 'command-end', 'cwd', 'prompt-start', 'input-start']);
    // Nothing but prompt redraws (A, B) before the C: no D without a command.
    expect(kinds.slice(0, start).every((kind) => kind === 'prompt-start' || kind === 'input-start')).toBe(true);
  });

  it('an empty Enter and Ctrl+C at the prompt make no block and no D', async () => {
    const blocks = session.blocks().length;
    const ends = session.count('command-end');
    const starts = session.count('command-start');
    let from = session.marks.length;
    session.write('\r');
    await session.waitUntil(() => session.newPromptSince(from), 5_000, 'a new prompt after Enter');
    from = session.marks.length;
    await session.type('echo never');
    await sleep(100);
    session.write('\x03');
    await session.waitUntil(() => session.newPromptSince(from), 5_000, 'a new prompt after Ctrl+C');
    await sleep(200);
    expect(session.blocks().length).toBe(blocks);
    expect(session.count('command-end')).toBe(ends);
    expect(session.count('command-start')).toBe(starts);
    expect(session.state).toBe('PROMPT');
  });

  it('the marks in the prompt take no width: a wrapped line edits correctly', async () => {
    if (!options.emacsKeys) return;
    const { x, y, line } = await session.cursor();
    const prompt = line.slice(0, x);
    const cols = session.columns;
    // Long enough to wrap: the editor's idea of the prompt width decides where it wraps
    // and where Ctrl+A lands.
    const text = 'a'.repeat(cols - prompt.length + 15);
    const from = session.marks.length;
    const joined = (lines: string[]) => (lines[y] ?? '') + (lines[y + 1] ?? '');
    await session.type(text);
    await session.waitForScreen((lines) => joined(lines) === `${prompt}${text}`, 5_000, 'the typed line, wrapped');
    session.write('\x01'); // Ctrl+A: start of line
    await session.waitForScreen((_lines, cursor) => cursor.y === y && cursor.x === prompt.length, 5_000, 'the cursor at the start of the line');
    await session.type('X');
    await session.waitForScreen(
      (lines, cursor) => joined(lines) === `${prompt}X${text}` && cursor.y === y && cursor.x === prompt.length + 1,
      5_000,
      'the X typed at the start, the line redrawn after it',
    );
    // fish drops a Ctrl+C that comes while it repaints the highlighting: press it again, as a user would.
    for (let attempt = 0; ; attempt++) {
      session.write('\x03');
      try {
        await session.waitUntil(() => session.newPromptSince(from), 2_000, 'a new prompt after Ctrl+C');
        break;
      } catch (error) {
        if (attempt === 2) throw error;
      }
    }
  });

  it('gives the shell a clean environment: terminal variables set, no bootstrap or nonce', async () => {
    const file = join(home, 'env.txt');
    await session.run(`env > ${file}`);
    const env = readText(file);
    expect(env).toMatch(/^TERM=xterm-256color$/m);
    expect(env).toMatch(/^COLORTERM=truecolor$/m);
    expect(env).toMatch(/^TERM_PROGRAM=Tandem$/m);
    expect(env).toMatch(/^TERM_PROGRAM_VERSION=\S+$/m);
    expect(env).not.toMatch(/^TANDEM_/m);
    expect(env).not.toMatch(/^VSCODE_/m);
    expect(env).not.toContain(session.nonce);
    expect(env).not.toContain('shell-integration');
    expect(env).not.toMatch(/^(BASH_FUNC_)?__tandem/m);
    // What a child process really got.
    const environ = join(home, 'environ.txt');
    await session.run(`cat /proc/self/environ | tr '\\0' '\\n' > ${environ}`);
    const childEnv = readText(environ);
    expect(childEnv).toMatch(/^TERM_PROGRAM=Tandem$/m);
    expect(childEnv).not.toContain(session.nonce);
    expect(childEnv).not.toMatch(/^(BASH_FUNC_)?__tandem|^TANDEM_/m);
  });

  it(`a nested ${shell} is a plain shell: no marks of ours, no bootstrap`, async () => {
    const file = join(home, 'nested-env.txt');
    const from = session.marks.length;
    const finished = session.finishedBlocks().length;
    await session.type(SHELLS[shell]);
    session.write('\r');
    await session.waitUntil(() => session.state === 'EXECUTING', 5_000, 'the nested shell to start');
    const started = session.blocks().at(-1)!.outputOffset;
    await session.waitUntil(() => session.editorReadySince(started), 10_000, "the nested shell's line editor");
    await session.type(`env > ${file}`);
    session.write('\r');
    await session.waitUntil(() => readText(file).includes('TERM_PROGRAM='), 10_000, 'the nested env to be written');
    await session.type('exit');
    session.write('\r');
    await session.waitUntil(
      () => session.finishedBlocks().length > finished && session.promptReadySince(from),
      10_000,
      'the nested shell to exit',
    );
    const block = session.finishedBlocks()[finished]!;
    expect(block.command).toBe(SHELLS[shell]);
    expect(block.exitCode).toBe(0);
    // Between the outer C and D: no mark with our nonce (the nested shell sends none).
    const during = session.marks.slice(from);
    const c = during.findIndex((seen) => seen.ours && seen.mark.kind === 'command-start');
    const d = during.findIndex((seen) => seen.ours && seen.mark.kind === 'command-end');
    expect(c).toBeGreaterThanOrEqual(0);
    expect(d).toBeGreaterThan(c);
    expect(during.slice(c + 1, d).filter((seen) => seen.ours)).toEqual([]);
    const env = readText(file);
    expect(env).toMatch(/^TERM_PROGRAM=Tandem$/m);
    expect(env).not.toMatch(/^TANDEM_/m);
    expect(env).not.toContain(session.nonce);
  });
}

/**
 * The user re-reads their startup file after editing it (`source ~/.bashrc`), which
 * reassigns PROMPT_COMMAND / precmd_functions and drops our hooks. The block of that
 * command may end without an exit code, but from the next command on blocks are whole.
 */
export function registerResourceTest(shell: ShellName, makeHome: () => string, rcFile: string): void {
  it(`recovers after the user re-sources ${rcFile}`, async () => {
    const home = makeHome();
    const session = await ShellSession.start({ shell, home });
    try {
      const from = session.marks.length;
      await session.type(`source ${rcFile}`);
      session.write('\r');
      await session.waitUntil(() => session.count('command-start') > 0 && session.state === 'EXECUTING', 5_000, 'source to start');
      // Its prompt carries no marks (our hooks are gone until the next Enter): the editor's start shows it.
      const sourcing = session.blocks().at(-1)!.outputOffset;
      await session.waitUntil(() => session.editorReadySince(sourcing), 10_000, 'the prompt after source');
      for (const command of ['echo after-one', 'false', 'echo after-two']) {
        const block = await session.run(command);
        expect(block).toMatchObject({ command, trusted: true });
      }
      const blocks = session.blocks();
      expect(blocks.map((block) => block.command)).toEqual([`source ${rcFile}`, 'echo after-one', 'false', 'echo after-two']);
      expect(blocks.slice(1).map((block) => block.exitCode)).toEqual([0, 1, 0]);
      expect(session.newPromptSince(from)).toBe(true);
      expect(session.state).toBe('PROMPT');
    } finally {
      session.kill();
      removeDir(home);
    }
  });
}

export function kindsOf(marks: SeenMark[]): string[] {
  return marks.filter((seen) => seen.ours || seen.mark.kind === 'cwd').map((seen) => seen.mark.kind);
}
