import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Block } from '../../src/shared/blocks';
import { Pane } from '../../src/main/panes/pane';
import { makeTempDir, removeDir, SHELLS, skipFishCompletionJob, writeFiles, type ShellName } from './harness/shellSession';
import { waitUntil } from '../support/waitUntil';

/**
 * A shell without Tandem's integration started from an integrated prompt (`bash --norc -i`,
 * `sh -i`: what `sudo -i` or `docker exec -it c sh` are to the pane) shows its prompts inside
 * the running block. The pane says so once per such shell, makes no blocks of those prompts,
 * and is back on its own blocks after `exit`.
 */
describe.each(['bash', 'zsh', 'fish'] as ShellName[])('a shell without integration started at a %s prompt', (shell) => {
  let pane: Pane;
  let home: string;
  let output = '';
  const notices: string[] = [];

  beforeAll(async () => {
    home = makeTempDir('foreign-shell');
    writeFiles(home, { '.config/fish/config.fish': 'set -g fish_greeting\n' });
    skipFishCompletionJob(home);
    pane = new Pane({
      id: 7,
      shellPath: SHELLS[shell],
      cwd: home,
      cols: 120,
      rows: 30,
      scrollback: 1_000,
      integration: true,
      login: false,
      env: { PATH: process.env.PATH, HOME: home, LANG: 'C.UTF-8', TERM: 'xterm-256color' },
    });
    pane.attach({
      output: (_, bytes) => (output += Buffer.from(bytes).toString('utf8')),
      event: (event, payload) => {
        if (event === 'pane.notice') notices.push((payload as { message: string }).message);
      },
    });
    pane.start();
    await waitUntil(() => pane.state === 'PROMPT', 'the prompt');
  }, 60_000);

  afterAll(async () => {
    await pane?.close();
    if (home) removeDir(home);
  });

  /** The latest block of `line` (each case types `echo back` again). */
  const blockOf = (line: string): Block | undefined => pane.blocks().filter((block) => block.command === line).at(-1);
  const noticesAbout = (line: string) => notices.filter((message) => message.startsWith(`\`${line}\` started a shell without Tandem's integration`));

  // `su -` asks root for no password (CI runs as root): the real thing, where it can run.
  it.each([['bash --norc --noprofile -i'], ['sh -i'], ...(process.getuid?.() === 0 ? [['su -']] : [])])('`%s`: one notice, its commands stay in its block, the pane’s own blocks come back after exit', async (line) => {
    const blocksBefore = pane.blocks().length;
    pane.write(`${line}\r`);
    await waitUntil(() => noticesAbout(line).length === 1, 'the notice');
    expect(blockOf(line)?.endedAt).toBeUndefined();
    // A second prompt of the same shell (and a command at it) adds no notice and no block.
    pane.write("PS1='inner> '\r");
    pane.write('echo inner-$((40 + 2))\r');
    await waitUntil(() => output.includes('inner-42') && output.slice(output.lastIndexOf('inner-42')).includes('inner> '), 'the inner shell to answer and prompt again');
    expect(pane.blocks().length).toBe(blocksBefore + 1);
    expect(pane.state).toBe('EXECUTING');
    pane.write('exit\r');
    await waitUntil(() => blockOf(line)?.endedAt !== undefined && pane.state === 'PROMPT', 'the integrated prompt after exit');
    expect(blockOf(line)).toMatchObject({ exitCode: 0, trusted: true });
    expect(noticesAbout(line)).toHaveLength(1);

    // Back at the integrated prompt: blocks as before, no notice.
    const noticeCount = notices.length;
    const backBefore = pane.blocks().filter((block) => block.command === 'echo back').length;
    pane.write('echo back\r');
    await waitUntil(() => pane.blocks().filter((block) => block.command === 'echo back').length > backBefore && blockOf('echo back')?.endedAt !== undefined && pane.state === 'PROMPT', 'a block at the integrated prompt');
    expect(notices.length).toBe(noticeCount);
  }, 60_000);

  it('a command that only prints something prompt-like, or a shell running a command, gets no notice', async () => {
    const noticeCount = notices.length;
    const lines = [`printf 'fake$ '; sleep 1; echo`, `sh -c "printf 'fake# '; sleep 1; echo"`];
    for (const line of lines) {
      pane.write(`${line}\r`);
      await waitUntil(() => blockOf(line)?.endedAt !== undefined && pane.state === 'PROMPT', `"${line}" to finish`);
    }
    expect(notices.length).toBe(noticeCount);
  }, 60_000);
});
