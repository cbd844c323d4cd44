import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir, ShellSession, type ShellName } from '../harness/shellSession';

/**
 * A line the shell rejects before running it (history expansion failed, a syntax error,
 * Ctrl+C on a continuation line) is no block of its own and no part of the next one: the
 * next block's command is exactly what the user typed next (it reaches the block index,
 * `??`, attachments and Rerun).
 */

/** A quiet machine's time limit; the waiters scale it for this one. */
const TIMEOUT = 10_000;

/** Types `keys`, then waits until the shell printed `message` and drew a prompt after it. */
async function rejected(session: ShellSession, keys: string, message: RegExp): Promise<void> {
  const from = session.outputLength;
  session.write(keys);
  const bytes = () => Buffer.from(session.output, 'utf8');
  await session.waitUntil(
    () => session.marks.some((seen) => seen.ours && seen.mark.kind === 'input-start' && seen.offset > from && message.test(bytes().subarray(from, seen.offset).toString('utf8'))),
    TIMEOUT,
    `${message} and a prompt after it`,
  );
}

/** Waits until the line being edited (the cursor's row) ends with `text`. */
async function lineShows(session: ShellSession, text: string): Promise<void> {
  await session.waitForScreen((_lines, cursor) => cursor.line.trimEnd().endsWith(text), TIMEOUT, `the line to show ${JSON.stringify(text)}`);
}

const CASES: Record<'bash' | 'zsh', { syntaxError: string; syntaxMessage: RegExp; continuationPrompt: string }> = {
  bash: { syntaxError: 'echo (', syntaxMessage: /syntax error/, continuationPrompt: '>' },
  zsh: { syntaxError: 'echo )', syntaxMessage: /parse error/, continuationPrompt: 'dquote>' },
};

describe.each(['bash', 'zsh'] as const)('%s: rejected lines', (shell: ShellName & keyof typeof CASES) => {
  const cases = CASES[shell];
  let session: ShellSession | undefined;
  let home: string | undefined;

  beforeAll(async () => {
    home = makeTempDir(`rejected-${shell}`);
    session = await ShellSession.start({ shell, home });
  });
  afterAll(() => {
    session?.kill();
    if (home) removeDir(home);
  });

  function started(): ShellSession {
    if (!session) throw new Error(`${shell} did not start (see the setup's error)`);
    return session;
  }

  /** Runs `command` after the rejected line and checks it is the only new block, exactly as typed. */
  async function nextBlockIs(before: number, command: string): Promise<void> {
    const shell = started();
    const block = await shell.run(command, TIMEOUT);
    expect(block.command).toBe(command);
    expect(shell.blocks().slice(before).map((b) => b.command)).toEqual([command]);
  }

  it('history expansion that fails (`!zzqq: event not found`) leaves nothing in the next block', async () => {
    const s = started();
    const before = s.blocks().length;
    await rejected(s, 'echo !zzqq\r', /event not found/);
    await nextBlockIs(before, 'echo ok2');
  });

  it('a syntax error is no block and not part of the next one', async () => {
    const s = started();
    const before = s.blocks().length;
    await rejected(s, `${cases.syntaxError}\r`, cases.syntaxMessage);
    await nextBlockIs(before, 'echo ok3');
  });

  it('Ctrl+C on a continuation line drops the lines typed so far', async () => {
    const s = started();
    const before = s.blocks().length;
    s.write('echo "abc\r');
    await lineShows(s, cases.continuationPrompt);
    await rejected(s, '\x03', /\^C|\n/);
    await nextBlockIs(before, 'echo ok4');
  });

  it('Ctrl+C on a partly typed line drops it', async () => {
    const s = started();
    const before = s.blocks().length;
    s.write('echo partial');
    await lineShows(s, 'echo partial');
    await rejected(s, '\x03', /\n/);
    await nextBlockIs(before, 'echo ok5');
  });
});

describe('bash: history lines put back for editing', () => {
  let session: ShellSession | undefined;
  let home: string | undefined;
  beforeAll(async () => {
    home = makeTempDir('histverify');
    session = await ShellSession.start({ shell: 'bash', home });
  });
  afterAll(() => {
    session?.kill();
    if (home) removeDir(home);
  });

  it('with histverify, the block is the expanded line that ran, not the `!!` typed before it', async () => {
    if (!session) throw new Error('bash did not start (see the setup\'s error)');
    await session.run('shopt -s histverify', TIMEOUT);
    await session.run('echo hi', TIMEOUT);
    const before = session.blocks().length;
    session.write('echo !!\r');
    await lineShows(session, 'echo echo hi');
    const block = await session.run('', TIMEOUT);
    expect(block.command).toBe('echo echo hi');
    expect(session.blocks().length).toBe(before + 1);
  });
});
