import { SerializeAddon } from '@xterm/addon-serialize';
import { Terminal as HeadlessTerminal } from '@xterm/headless';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Block } from '../../src/shared/blocks';
import type { PaneInfo, SnapshotBlock } from '../../src/shared/protocol';
import type { PaneSessionHooks, TerminalAppearance } from '../../src/renderer/src/terminal/PaneSession';
import { terminalStateSequences } from '../../src/main/blocks/mirror/terminalStateSequences';
import { importRendererModule } from './support/rendererModule';

type PaneSessionModule = typeof import('../../src/renderer/src/terminal/PaneSession');
type InputPriorityModule = typeof import('../../src/renderer/src/terminal/inputPriority');

const encode = (text: string) => new TextEncoder().encode(text);

/** The little of a DOM the session touches before it is placed in the page. */
function stubBrowser(): void {
  const element = () => ({ className: '', addEventListener() {}, removeEventListener() {}, remove() {}, parentElement: null });
  vi.stubGlobal('window', { ...globalThis, tandemElectron: undefined });
  vi.stubGlobal('navigator', { platform: 'Linux x86_64', userAgent: 'vitest', maxTouchPoints: 0 });
  vi.stubGlobal('document', { createElement: element, activeElement: null });
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
  vi.stubGlobal('requestAnimationFrame', (callback: () => void) => setTimeout(callback, 0));
  vi.stubGlobal('cancelAnimationFrame', (handle: number) => clearTimeout(handle));
}

const appearance: TerminalAppearance = {
  fontFamily: 'monospace',
  fontSize: 13,
  scrollback: 1_000,
  cursorBlink: false,
  webgl: false,
  copyOnSelect: false,
  theme: 'dark',
};

function info(overrides: Partial<PaneInfo> = {}): PaneInfo {
  return { paneId: 1, shell: '/bin/bash', shellName: 'bash', integration: true, cwd: '/', state: 'PROMPT', cols: 40, rows: 6, streamOffset: 0, ...overrides };
}

function block(overrides: Partial<Block> & { id: string }): Block {
  return { paneId: 1, command: 'ls', cwd: '/', startedAt: 1, trusted: true, outputOffset: 0, usedAlternateScreen: false, ...overrides };
}

async function openSession(paneInfo: PaneInfo, scrollback = appearance.scrollback) {
  const { PaneSession } = await importRendererModule<PaneSessionModule>('terminal/PaneSession.ts');
  const { InputPriority } = await importRendererModule<InputPriorityModule>('terminal/inputPriority.ts');
  const log: string[] = [];
  let logged = () => undefined as void;
  const record = (line: string) => {
    log.push(line);
    logged();
  };
  /** Resolves once the hooks have reported `count` things. */
  const untilLogged = (count: number) =>
    new Promise<void>((resolve) => {
      logged = () => {
        if (log.length >= count) resolve();
      };
      logged();
    });
  const acks: number[] = [];
  const placed = (blockId: string) => {
    const lines = session.blocks.markers.lines(blockId);
    return lines ? `rows ${lines.top}-${lines.bottom}` : 'not placed';
  };
  const hooks: PaneSessionHooks = {
    onFocus: () => undefined,
    onRestartRequested: () => undefined,
    onCloseRequested: () => undefined,
    onUserInput: () => undefined,
    onBlock: (each) => record(`store ${each.id} ${each.endedAt === undefined ? 'running' : 'finished'}, ${placed(each.id)}`),
    onBlocksListed: (paneId, blocks) => record(`listed in ${paneId}: ${blocks.map((each) => `${each.id} ${placed(each.id)}`).join(', ')}`),
    onPaneEvent: (event) => record(`${event.name}, cursor row ${JSON.stringify(cursorLine())}`),
  };
  const transport = { sendInput: () => undefined, sendAck: (_paneId: number, count: number) => acks.push(count), resize: () => Promise.resolve(true) };
  const session = new PaneSession(paneInfo, transport, hooks, { ...appearance, scrollback }, new InputPriority());
  const buffer = () => session.terminal.buffer.active;
  const lineText = (row: number) => buffer().getLine(row)?.translateToString(true) ?? '';
  const cursorLine = () => lineText(buffer().baseY + buffer().cursorY);
  const rows = (blockId: string) => {
    const lines = session.blocks.markers.lines(blockId);
    if (!lines) return undefined;
    const texts: string[] = [];
    for (let row = lines.top; row <= lines.bottom; row++) texts.push(lineText(row));
    return texts;
  };
  return { session, log, untilLogged, acks, rows, lineText };
}

/** What the engine's mirror would send on re-attach: a snapshot, and its blocks' edges as rows from its cursor. */
async function mirrorSnapshot(run: (write: (data: string) => Promise<void>, mark: (blockId: string, edge: 'start' | 'end') => void) => Promise<void>) {
  const mirror = new HeadlessTerminal({ cols: 40, rows: 6, scrollback: 10_000, allowProposedApi: true });
  const serializer = new SerializeAddon();
  mirror.loadAddon(serializer as unknown as Parameters<typeof mirror.loadAddon>[0]);
  const edges = new Map<string, { start?: { line: number; column: number }; end?: { line: number; column: number } }>();
  const cursor = () => ({ line: mirror.buffer.active.baseY + mirror.buffer.active.cursorY, column: mirror.buffer.active.cursorX });
  await run(
    (data) => new Promise<void>((resolve) => mirror.write(data, resolve)),
    (blockId, edge) => edges.set(blockId, { ...edges.get(blockId), [edge]: cursor() }),
  );
  // Block edges count from the normal screen's cursor (a program may have the alternate one up).
  const now = mirror.buffer.normal.baseY + mirror.buffer.normal.cursorY;
  const snapshotBlocks: SnapshotBlock[] = [...edges].map(([blockId, { start, end }]) => ({
    blockId,
    start: { row: start!.line - now, column: start!.column },
    ...(end ? { end: { row: end.line - now, column: end.column } } : {}),
  }));
  return { snapshot: serializer.serialize({ excludeAltBuffer: true, excludeModes: true }), snapshotBlocks, snapshotState: terminalStateSequences(mirror) };
}

beforeEach(() => {
  vi.resetModules();
  stubBrowser();
});
afterEach(() => vi.unstubAllGlobals());

describe('PaneSession: one ordered stream into xterm', () => {
  it('places each block edge where its event sits in the output, and only then tells the store', async () => {
    const { session, log, untilLogged, acks, rows } = await openSession(info());
    session.receiveOutput(encode('$ ls\r\n'));
    session.receiveBlock(block({ id: 'b1', outputOffset: 6 }));
    session.receiveOutput(encode('a.txt\r\nb.txt\r\n'));
    session.receiveBlock(block({ id: 'b1', outputOffset: 6, endedAt: 2, exitCode: 0, outputEndOffset: 20 }));
    session.receivePaneEvent({ name: 'pane.state', payload: { paneId: 1, state: 'PROMPT', cwd: '/', integration: true } });
    session.receiveOutput(encode('$ '));
    session.receivePaneEvent({ name: 'pane.exit', payload: { paneId: 1, exitCode: 0, message: '' } });
    // xterm has not parsed anything yet, so no block or event has reached the stores.
    expect(log).toEqual(['listed in 1: ']);
    await untilLogged(5);
    expect(log).toEqual([
      'listed in 1: ',
      'store b1 running, rows 0-1',
      'store b1 finished, rows 0-2',
      'pane.state, cursor row ""',
      'pane.exit, cursor row "$ "',
    ]);
    expect(rows('b1')).toEqual(['$ ls', 'a.txt', 'b.txt']);
    expect(acks.reduce((sum, count) => sum + count, 0)).toBe(22);
    expect(session.hasExited).toBe(true);
    session.dispose();
  });

  it('places the blocks of a re-attach snapshot at their rows, even where the page keeps less scrollback', async () => {
    const { snapshot, snapshotBlocks } = await mirrorSnapshot(async (write, mark) => {
      await write('$ seq 30\r\n');
      mark('p1b1', 'start');
      for (let i = 1; i <= 30; i++) await write(`${i}\r\n`);
      mark('p1b1', 'end');
      await write('$ echo kept\r\n');
      mark('p1b2', 'start');
      await write('kept\r\n');
      mark('p1b2', 'end');
      await write('$ sleep 9\r\n');
      mark('p1b3', 'start');
      await write('tick\r\n');
    });
    const blocks = [
      block({ id: 'p1b1', command: 'seq 30', outputOffset: 10, endedAt: 2, exitCode: 0 }),
      block({ id: 'p1b2', command: 'echo kept', outputOffset: 120, endedAt: 3, exitCode: 0 }),
      block({ id: 'p1b3', command: 'sleep 9', outputOffset: 140 }),
    ];
    // 6 rows and 10 of scrollback: the top of `seq 30` is trimmed away.
    const { session, log, untilLogged, rows } = await openSession(info({ snapshot, snapshotBlocks, blocks, streamOffset: 150 }), 10);
    await untilLogged(1);
    expect(log).toEqual(['listed in 1: p1b1 not placed, p1b2 rows 11-12, p1b3 rows 13-15']);
    expect(rows('p1b2')).toEqual(['$ echo kept', 'kept']);
    // Running: down to the cursor row.
    expect(rows('p1b3')).toEqual(['$ sleep 9', 'tick', '']);

    // The running block goes on; its end comes live, at its place in the stream.
    session.receiveOutput(encode('tock\r\n'));
    session.receiveBlock({ ...blocks[2]!, endedAt: 4, exitCode: 0, outputEndOffset: 156 });
    session.receiveOutput(encode('$ '));
    // A block.finished for a block that began before the snapshot's scrollback places nothing.
    session.receiveBlock({ ...blocks[0]!, endedAt: 5 });
    await untilLogged(3);
    expect(log.slice(1)).toEqual(['store p1b3 finished, rows 12-14', 'store p1b1 finished, not placed']);
    expect(rows('p1b3')).toEqual(['$ sleep 9', 'tick', 'tock']);
    session.dispose();
  });

  it('a re-attach while a full-screen program runs: blocks placed on the shell screen, then the program screen and modes over it', async () => {
    const { snapshot, snapshotBlocks, snapshotState } = await mirrorSnapshot(async (write, mark) => {
      await write('$ echo kept\r\n');
      mark('p1b1', 'start');
      await write('kept\r\n');
      mark('p1b1', 'end');
      await write('$ vim\r\n');
      mark('p1b2', 'start');
      await write('\x1b[?1049h\x1b[?1h\x1b=\x1b[H\x1b[2Jediting\x1b[6;1H-- INSERT --\x1b[1;8H');
    });
    const blocks = [
      block({ id: 'p1b1', command: 'echo kept', outputOffset: 13, endedAt: 2, exitCode: 0 }),
      block({ id: 'p1b2', command: 'vim', outputOffset: 26 }),
    ];
    const { session, log, untilLogged, rows, lineText } = await openSession(info({ snapshot, snapshotBlocks, snapshotState, blocks, streamOffset: 80 }));
    await untilLogged(1);
    expect(log).toEqual(['listed in 1: p1b1 rows 0-1, p1b2 rows 2-3']);
    await vi.waitUntil(() => session.terminal.buffer.active.type === 'alternate');
    expect(lineText(session.terminal.buffer.active.baseY)).toBe('editing');
    expect(session.terminal.modes.applicationCursorKeysMode).toBe(true);

    // vim quits: the shell's screen is back with its blocks where they were.
    session.receiveOutput(encode('\x1b[?1049l\x1b[?1l\x1b>'));
    session.receiveBlock({ ...blocks[1]!, endedAt: 3, exitCode: 0 });
    await untilLogged(2);
    expect(session.terminal.buffer.active.type).toBe('normal');
    expect(rows('p1b1')).toEqual(['$ echo kept', 'kept']);
    expect(rows('p1b2')).toEqual(['$ vim']);
    session.dispose();
  });

  it('a restarted shell continues below the old scrollback with blocks of its own', async () => {
    const { session, log, untilLogged, rows } = await openSession(info());
    session.receiveOutput(encode('$ true\r\n'));
    session.receiveBlock(block({ id: 'p1b1', command: 'true', outputOffset: 8 }));
    session.receivePaneEvent({ name: 'pane.exit', payload: { paneId: 1, exitCode: 1, message: '' } });
    await untilLogged(3);
    session.rebind(info({ paneId: 2 }));
    session.receiveOutput(encode('$ pwd\r\n'));
    session.receiveBlock(block({ id: 'p2b1', paneId: 2, command: 'pwd', outputOffset: 7 }));
    await untilLogged(5);
    expect(log.slice(3)).toEqual(['listed in 2: ', 'store p2b1 running, rows 4-5']);
    expect(session.blocks.markers.lines('p1b1')).toBeUndefined();
    expect(rows('p2b1')).toEqual(['$ pwd', '']);
    expect(session.hasExited).toBe(false);
    session.dispose();
  });
});

describe('PaneSession: links', () => {
  it('a link tip goes when its terminal is hidden (another tab) or closed, which send no mouseleave', async () => {
    const { session } = await openSession(info());
    const { useLinkStore } = await importRendererModule<typeof import('../../src/renderer/src/terminal/linkStore')>('terminal/linkStore.ts');
    const hover = () => session.terminal.options.linkHandler!.hover!({ clientX: 5, clientY: 5 } as MouseEvent, 'https://example.org/', { start: { x: 1, y: 1 }, end: { x: 5, y: 1 } });
    session.setVisible(true);
    hover();
    expect(useLinkStore.getState().hover?.target).toBe('https://example.org/');
    session.setVisible(false);
    expect(useLinkStore.getState().hover).toBeUndefined();
    hover();
    session.dispose();
    expect(useLinkStore.getState().hover).toBeUndefined();
  });
});

describe('PaneSession: appearance', () => {
  it('a settings change reaches xterm options that differ and leaves the others as they are', async () => {
    const { session } = await openSession(info());
    const themeBefore = session.terminal.options.theme;
    session.applyAppearance({ ...appearance, fontSize: 17, cursorBlink: true });
    expect(session.terminal.options.fontSize).toBe(17);
    expect(session.terminal.options.cursorBlink).toBe(true);
    expect(session.terminal.options.theme).toBe(themeBefore);
    session.applyAppearance({ ...appearance, fontSize: 17, cursorBlink: true, theme: 'light' });
    expect(session.terminal.options.theme).not.toBe(themeBefore);
    session.dispose();
  });
});
