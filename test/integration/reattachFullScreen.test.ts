import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TerminalMirror } from '../../src/main/blocks/mirror/terminalMirror';
import type { PaneInfo } from '../../src/shared/protocol';
import { EngineClient, useEngineClient } from '../support/engineClient';
import { headlessOf, terminalStateOf } from '../support/terminalStateOf';

// A reloaded tab while a full-screen program runs: a second client re-attaches and must end
// up with the terminal the first one had, the program's screen, modes and all, and the
// program must take the keys that follow as it would have before.

const { open, track } = useEngineClient();
const COLS = 80;
const ROWS = 24;
const SCROLLBACK = 1_000;

async function replay(...parts: (string | Buffer)[]): Promise<TerminalMirror> {
  const terminal = new TerminalMirror(COLS, ROWS, SCROLLBACK);
  for (const part of parts) terminal.write(typeof part === 'string' ? part : new Uint8Array(part));
  await terminal.flushed();
  return terminal;
}

type Opened = Awaited<ReturnType<typeof open>>;

/**
 * Waits until the client has every byte the pane has printed and `ready` holds on the screen
 * they draw (a program draws its screen in several writes; these programs then sit idle).
 */
async function settled(client: EngineClient, engine: Opened['engine'], paneId: number, ready: (screen: string) => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const length = client.outputOf(paneId).length;
    if (length === engine.engine.pane(paneId).info().streamOffset) {
      const terminal = await replay(client.outputOf(paneId));
      const done = ready(terminal.screenText());
      terminal.dispose();
      if (done) return;
    }
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await client.waitFor(() => client.outputOf(paneId).length !== length, 1_000, 'more output').catch(() => undefined);
  }
}

/**
 * A second client re-attaches, then the first, which saw the whole stream, goes away. The
 * second's snapshot and state, replayed into a fresh terminal, must equal the first client's
 * terminal after exactly the bytes the snapshot covers (a program may still print a little
 * after the screen looked settled, e.g. tmux redrawing its inner shell's prompt).
 */
async function reattach(first: EngineClient, engine: Opened['engine'], paneId: number) {
  const second = track(await EngineClient.connect(engine.server));
  await second.request('hello', {});
  const attached: PaneInfo = await second.request('pane.attach', { paneId });
  await first.waitFor(() => first.outputOf(paneId).length >= attached.streamOffset, 30_000, 'the first client to see what the snapshot covers');
  const reference = await replay(first.outputOf(paneId).subarray(0, attached.streamOffset));
  first.close();
  const restored = await replay(attached.snapshot ?? '', attached.snapshotState ?? '');
  return { second, attached, reference, restored };
}

describe('re-attaching to a pane running a full-screen program (real pty, real programs)', () => {
  it('vim: the edited buffer, insert mode, application cursor keys and the shell behind come back; keys still reach vim', async () => {
    const { client, engine } = await open({ shell: '/bin/bash' });
    const { paneId } = await client.request('pane.create', { cols: COLS, rows: ROWS });
    await client.waitForPrompt(paneId);
    const file = join(engine.home, 'notes.txt');
    writeFileSync(file, 'first line\n');
    client.type(paneId, 'echo before-vim\r');
    await client.waitForBlock(paneId, 'echo before-vim');
    client.type(paneId, `vim.tiny -u NONE -i NONE -N -n -c 'set mouse=a' notes.txt\r`);
    await settled(client, engine, paneId, (screen) => screen.includes('first line') && screen.includes('notes.txt'), 'vim showing the file');
    client.type(paneId, 'Gotyped before the reload');
    await settled(client, engine, paneId, (screen) => screen.includes('typed before the reload') && screen.includes('-- INSERT --'), 'the typed text in insert mode');

    const { second, reference, restored } = await reattach(client, engine, paneId);
    expect(restored.isAlternateScreen).toBe(true);
    expect(restored.screenText()).toContain('typed before the reload');
    expect(restored.screenText()).toContain('-- INSERT --');
    const state = terminalStateOf(headlessOf(restored));
    expect(state).toEqual(terminalStateOf(headlessOf(reference)));
    // What vim asked the terminal for: arrow keys as ESC O A, mouse reports in SGR form.
    expect(state.modes).toMatchObject({ applicationCursorKeysMode: true, mouseTrackingMode: expect.not.stringMatching(/^none$/) });
    expect(state.mouse).toEqual([expect.any(String), 'SGR']);

    // The keys that follow: an application-mode arrow key moves up (to the end of line 1), x, Esc, :wq.
    second.type(paneId, '\x1bOAx\x1b:wq\r');
    const vim = await second.waitForBlock(paneId, `vim.tiny -u NONE -i NONE -N -n -c 'set mouse=a' notes.txt`, 30_000);
    expect(vim.exitCode).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('first linex\ntyped before the reload\n');
    // Leaving vim shows the shell's screen as it was, from the re-attached client's terminal.
    const after = await replay(second.outputOf(paneId));
    restored.write(new Uint8Array(second.outputOf(paneId)));
    await restored.flushed();
    expect(restored.isAlternateScreen).toBe(false);
    expect(restored.screenText()).toContain('before-vim');
    expect(restored.screenText()).not.toContain('typed before the reload');
    for (const terminal of [reference, restored, after]) terminal.dispose();
  }, 120_000);

  it('less: the page, its cursor and modes come back, and q returns to the shell screen', async () => {
    const { client, engine } = await open({ shell: '/bin/bash' });
    const { paneId } = await client.request('pane.create', { cols: COLS, rows: ROWS });
    await client.waitForPrompt(paneId);
    writeFileSync(join(engine.home, 'numbers.txt'), Array.from({ length: 300 }, (_, i) => `line ${i}`).join('\n'));
    client.type(paneId, 'less numbers.txt\r');
    await settled(client, engine, paneId, (screen) => screen.includes('line 22'), 'less showing the file');
    client.type(paneId, '/line 150\r');
    await settled(client, engine, paneId, (screen) => screen.includes('line 172') && !screen.includes('line 149'), 'less at line 150');

    const { second, reference, restored } = await reattach(client, engine, paneId);
    expect(restored.isAlternateScreen).toBe(true);
    expect(terminalStateOf(headlessOf(restored))).toEqual(terminalStateOf(headlessOf(reference)));
    expect(restored.screenText()).toContain('line 150');

    second.type(paneId, 'q');
    await second.waitForBlock(paneId, 'less numbers.txt', 30_000);
    restored.write(new Uint8Array(second.outputOf(paneId)));
    await restored.flushed();
    expect(restored.isAlternateScreen).toBe(false);
    expect(restored.screenText()).not.toContain('line 172');
    expect(restored.screenText()).toContain('$ less numbers.txt');
    reference.dispose();
    restored.dispose();
  }, 120_000);

  it('tmux: its screen, status line, cursor and modes come back, and its shell takes the next command', async () => {
    const { client, engine } = await open({ shell: '/bin/bash', env: { TMUX_TMPDIR: '' } });
    const { paneId } = await client.request('pane.create', { cols: COLS, rows: ROWS });
    await client.waitForPrompt(paneId);
    // Its own server socket in the test home, no user configuration, and a status line that
    // is not redrawn every 15 s (the re-attach must see the bytes the first client saw).
    writeFileSync(join(engine.home, 'tmux.conf'), 'set -g status-interval 0\n');
    const tmux = `tmux -S ${join(engine.home, 'tmux.sock')} -f ${join(engine.home, 'tmux.conf')}`;
    client.type(paneId, `${tmux} new -s t1\r`);
    await settled(client, engine, paneId, (screen) => /\[t1\]/.test(screen), 'tmux with its status line');
    client.type(paneId, 'echo inside-tmux\r');
    await settled(client, engine, paneId, (screen) => screen.includes('inside-tmux\n'), 'the command inside tmux');

    const { second, reference, restored } = await reattach(client, engine, paneId);
    expect(restored.isAlternateScreen).toBe(true);
    expect(terminalStateOf(headlessOf(restored))).toEqual(terminalStateOf(headlessOf(reference)));
    expect(restored.screenText()).toMatch(/\[t1\]/);

    second.type(paneId, 'echo after-reload\r');
    await second.waitFor(() => second.textOf(paneId).includes('after-reload'), 30_000, 'tmux echoing after the reload');
    second.type(paneId, `${tmux} kill-server\r`);
    await second.waitForBlock(paneId, `${tmux} new -s t1`, 30_000);
    reference.dispose();
    restored.dispose();
  }, 120_000);

  it('an escape sequence cut in two by the re-attach is completed by the live output, never printed as text', async () => {
    const { client: first, engine } = await open({ shell: '/bin/bash' });
    const { paneId } = await first.request('pane.create', { cols: COLS, rows: ROWS });
    await first.waitForPrompt(paneId);
    // Half a colour sequence, then the rest once the test says so (after the re-attach).
    const go = join(engine.home, 'go');
    first.type(paneId, `printf 'cut:\\e[3'; until [ -e ${go} ]; do sleep 0.05; done; printf '1mred\\e[0m\\n'\r`);
    await first.waitFor(() => first.textOf(paneId).includes('cut:\x1b[3'), 30_000, 'the first half of the sequence');
    await settled(first, engine, paneId, () => true, 'the pane to have sent everything');
    const { second, restored } = await reattach(first, engine, paneId);
    writeFileSync(go, '');
    await second.waitFor(() => second.textOf(paneId).includes('1mred'), 30_000, 'the rest of the sequence');
    restored.write(new Uint8Array(second.outputOf(paneId)));
    await restored.flushed();
    expect(restored.screenText()).toMatch(/^cut:red$/m);
    restored.dispose();
  }, 120_000);
});
