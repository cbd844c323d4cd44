import { Terminal as HeadlessTerminal } from '@xterm/headless';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { displayTarget, linkTextDiffers, visibleLinkText, type LinkRange } from '../../src/renderer/src/terminal/linkText';
import { importRendererModule } from './support/rendererModule';

type TerminalLinksModule = typeof import('../../src/renderer/src/terminal/terminalLinks');
type LinkStoreModule = typeof import('../../src/renderer/src/terminal/linkStore');
type LinkPopupsModule = typeof import('../../src/renderer/src/terminal/LinkPopups');

/** An OSC 8 hyperlink: `text` on screen, `target` opened. */
const osc8 = (target: string, text: string) => `\x1b]8;;${target}\x07${text}\x1b]8;;\x07`;

describe('when a link asks before opening (its text names another destination)', () => {
  it.each([
    // The text names a place the target is not.
    ['https://bank.example', 'https://evil.example/', true],
    ['https://bank.example/login', 'https://evil.example/bank.example/login', true],
    ['bank.example', 'https://evil.example', true],
    ['www.bank.example', 'https://bank.example.evil.example/', true],
    ['(https://bank.example)', 'https://evil.example', true],
    ['https://bank.example', 'https://bank.example@evil.example/', true],
    ['https://bank.example', 'http://bank.example/', true],
    ['https://bank.example:8443', 'https://bank.example/', true],
    ['192.168.1.1', 'https://192.168.1.2/', true],
    ['https://bank.example', 'mailto:help@bank.example', true],
    ['help@bank.example', 'mailto:phish@evil.example', true],
    ['mailto:help@bank.example', 'mailto:phish@evil.example', true],
    // A look-alike host (Cyrillic "а") is another host.
    ['https://bаnk.example', 'https://bank.example/', true],
    ['README.md', 'https://github.com/u/r/blob/main/README.md', true],
    // Same destination: case, a trailing slash, www., a shortened path, http upgraded to https.
    ['https://bank.example', 'https://bank.example/', false],
    ['HTTPS://Bank.Example/Login', 'https://bank.example/Login', false],
    ['bank.example', 'https://www.bank.example/', false],
    ['github.com/…/README.md', 'https://github.com/u/r/blob/main/README.md', false],
    ['http://bank.example', 'https://bank.example/', false],
    ['https://bank.example.', 'https://bank.example/', false],
    ['<help@bank.example>', 'mailto:Help@Bank.example?subject=hi', false],
    // No destination named: the hover tip shows where it goes, nothing to contradict.
    ['click here', 'https://evil.example', false],
    ['docs', 'https://evil.example', false],
    ['PR #12', 'https://github.com/u/r/pull/12', false],
    ['-Wunused-variable', 'https://gcc.gnu.org/onlinedocs/gcc/Warning-Options.html', false],
    ['v1.2', 'https://example.org/releases', false],
    ['', 'https://example.org', false],
  ])('text %j, target %j: %s', (text, target, differs) => {
    expect(linkTextDiffers(text, target)).toBe(differs);
  });

  it('shows targets parsed, so a look-alike host reads as punycode', () => {
    expect(displayTarget('https://bаnk.example/x')).toBe('https://xn--bnk-6cd.example/x');
    expect(displayTarget('HTTPS://EVIL.example')).toBe('https://evil.example/');
    expect(displayTarget('not a url')).toBe('not a url');
  });
});

describe('the text under a link', () => {
  async function screen(cols: number, data: string) {
    const terminal = new HeadlessTerminal({ cols, rows: 6, allowProposedApi: true });
    await new Promise<void>((resolve) => terminal.write(data, resolve));
    return terminal;
  }
  const range = (startX: number, startY: number, endX: number, endY: number): LinkRange => ({ start: { x: startX, y: startY }, end: { x: endX, y: endY } });

  it('is the cells of its range (1-based, both ends included)', async () => {
    const terminal = await screen(40, `see ${osc8('https://evil.example', 'https://bank.example')} now`);
    // xterm's range for the link: columns 5..24 of row 1.
    expect(visibleLinkText(terminal.buffer.active, 40, range(5, 1, 24, 1))).toBe('https://bank.example');
  });

  it('of a link that wraps is read whole from either of its rows', async () => {
    // 20 columns: "> https://bank.exampl" fills row 1, "e/login" continues on row 2.
    const terminal = await screen(20, `> ${osc8('https://evil.example', 'https://bank.example/login')} ok`);
    expect(terminal.buffer.active.getLine(1)?.isWrapped).toBe(true);
    // The two parts xterm reports: row 1 columns 3..20, row 2 columns 1..8.
    expect(visibleLinkText(terminal.buffer.active, 20, range(3, 1, 20, 1))).toBe('https://bank.example/login');
    expect(visibleLinkText(terminal.buffer.active, 20, range(1, 2, 8, 2))).toBe('https://bank.example/login');
  });
});

/** The fields of a MouseEvent the link code reads. */
const click = (init: { ctrl?: boolean; meta?: boolean } = {}) =>
  ({ ctrlKey: init.ctrl ?? false, metaKey: init.meta ?? false, clientX: 100, clientY: 50 }) as MouseEvent;

describe('a pane’s links', () => {
  const opened: string[][] = [];

  async function setUp(platform = 'Linux x86_64') {
    vi.resetModules();
    opened.length = 0;
    vi.stubGlobal('window', {
      ...globalThis,
      tandemElectron: undefined,
      innerWidth: 1200,
      innerHeight: 800,
      open: (...args: string[]) => void opened.push(args),
    });
    vi.stubGlobal('navigator', { platform, userAgent: 'vitest', maxTouchPoints: 0 });
    vi.stubGlobal('document', { createElement: () => ({}), activeElement: null });
    const { Terminal } = await import('@xterm/xterm');
    const { TerminalLinks } = await importRendererModule<TerminalLinksModule>('terminal/terminalLinks.ts');
    const { useLinkStore } = await importRendererModule<LinkStoreModule>('terminal/linkStore.ts');
    const { linkHint } = await importRendererModule<LinkPopupsModule>('terminal/LinkPopups.tsx');
    const terminal = new Terminal({ cols: 40, rows: 6, allowProposedApi: true });
    const focused: string[] = [];
    const links = new TerminalLinks(terminal, { focus: () => focused.push('terminal') });
    const handler = terminal.options.linkHandler!;
    const write = (data: string) => new Promise<void>((resolve) => terminal.write(data, resolve));
    return { terminal, links, handler, store: useLinkStore, focused, write, linkHint };
  }

  beforeEach(() => vi.unstubAllGlobals());
  afterEach(() => vi.unstubAllGlobals());

  it('OSC 8 links of every scheme are found (so the tip can say why file:// does not open)', async () => {
    const { handler } = await setUp();
    expect(handler.allowNonHttpProtocols).toBe(true);
  });

  it('open on Ctrl+click only, and only http, https and mailto targets', async () => {
    const { links } = await setUp();
    links.activate(click(), 'https://example.org/', 'https://example.org/');
    expect(opened).toEqual([]);
    links.activate(click({ ctrl: true }), 'https://example.org/', 'https://example.org/');
    links.activate(click({ ctrl: true }), 'mailto:someone@example.org', 'write to us');
    for (const target of ['file:///etc/passwd', 'javascript:alert(1)', 'ssh://host', 'not a url']) {
      links.activate(click({ ctrl: true }), target, target);
    }
    expect(opened).toEqual([
      ['https://example.org/', '_blank', 'noopener,noreferrer'],
      ['mailto:someone@example.org', '_blank', 'noopener,noreferrer'],
    ]);
  });

  it('on macOS open on Cmd+click', async () => {
    const { links } = await setUp('MacIntel');
    links.activate(click({ ctrl: true }), 'https://example.org/', 'https://example.org/');
    expect(opened).toEqual([]);
    links.activate(click({ meta: true }), 'https://example.org/', 'https://example.org/');
    expect(opened).toHaveLength(1);
  });

  it('an OSC 8 link whose text names another host asks first: Cancel opens nothing, Open opens the target; focus goes back to the terminal', async () => {
    const { handler, store, focused, write } = await setUp();
    await write(`see ${osc8('https://evil.example/', 'https://bank.example')} now`);
    const where = { start: { x: 5, y: 1 }, end: { x: 24, y: 1 } };

    handler.activate(click({ ctrl: true }), 'https://evil.example/', where);
    expect(opened).toEqual([]);
    expect(store.getState().confirm).toMatchObject({ target: 'https://evil.example/', text: 'https://bank.example' });
    store.getState().answer(false);
    expect(store.getState().confirm).toBeUndefined();
    expect(opened).toEqual([]);
    expect(focused).toEqual(['terminal']);

    handler.activate(click({ ctrl: true }), 'https://evil.example/', where);
    store.getState().answer(true);
    expect(opened).toEqual([['https://evil.example/', '_blank', 'noopener,noreferrer']]);
    expect(focused).toEqual(['terminal', 'terminal']);
  });

  it('an OSC 8 link whose text names no place, or its own target, opens at once', async () => {
    const { handler, store, write } = await setUp();
    await write(`${osc8('https://example.org/docs', 'the docs')} ${osc8('https://example.org/', 'example.org')}`);
    handler.activate(click({ ctrl: true }), 'https://example.org/docs', { start: { x: 1, y: 1 }, end: { x: 8, y: 1 } });
    handler.activate(click({ ctrl: true }), 'https://example.org/', { start: { x: 10, y: 1 }, end: { x: 20, y: 1 } });
    expect(store.getState().confirm).toBeUndefined();
    expect(opened.map(([target]) => target)).toEqual(['https://example.org/docs', 'https://example.org/']);
  });

  it('hovering shows the target and how to open it; leaving takes the tip down', async () => {
    const { handler, links, store, write, linkHint } = await setUp();
    await write(`${osc8('https://evil.example/', 'https://bank.example')} ${osc8('file:///etc/hosts', 'hosts')}`);
    handler.hover!(click(), 'https://evil.example/', { start: { x: 1, y: 1 }, end: { x: 20, y: 1 } });
    const misleading = store.getState().hover!;
    expect(misleading).toMatchObject({ target: 'https://evil.example/', openable: true, textDiffers: true, x: 100, y: 50 });
    expect(linkHint(misleading)).toBe('Ctrl+click to open — its text shows another address, you will be asked first');
    handler.leave!(click(), 'https://evil.example/', { start: { x: 1, y: 1 }, end: { x: 20, y: 1 } });
    expect(store.getState().hover).toBeUndefined();

    handler.hover!(click(), 'file:///etc/hosts', { start: { x: 22, y: 1 }, end: { x: 26, y: 1 } });
    expect(linkHint(store.getState().hover!)).toBe('Tandem opens only http, https and mailto links');

    // A plain URL in the output (the web-links addon): its text is its target.
    links.hover(click(), 'https://example.org/a', 'https://example.org/a');
    expect(store.getState().hover).toMatchObject({ openable: true, textDiffers: false });
    expect(linkHint(store.getState().hover!)).toBe('Ctrl+click to open');
    // A closed pane takes its tip with it.
    links.dispose();
    expect(store.getState().hover).toBeUndefined();
  });
});
