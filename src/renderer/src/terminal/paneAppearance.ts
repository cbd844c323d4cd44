import { Unicode11Addon } from '@xterm/addon-unicode11';
import { Terminal } from '@xterm/xterm';
import { isMac } from '../platform/platform';
import type { ResolvedTheme } from '../settings/settingsStore';
import { terminalTheme } from './terminalThemes';

export interface TerminalAppearance {
  fontFamily: string;
  fontSize: number;
  scrollback: number;
  cursorBlink: boolean;
  webgl: boolean;
  copyOnSelect: boolean;
  theme: ResolvedTheme;
}

/** A pane's xterm, dressed as the settings say. */
export function createPaneTerminal(size: { cols: number; rows: number }, appearance: TerminalAppearance): Terminal {
  const terminal = new Terminal({
    cols: Math.max(2, size.cols),
    rows: Math.max(1, size.rows),
    allowProposedApi: true,
    scrollback: appearance.scrollback,
    fontFamily: appearance.fontFamily,
    fontSize: appearance.fontSize,
    cursorBlink: appearance.cursorBlink,
    theme: terminalTheme(appearance.theme),
    macOptionIsMeta: false,
    rightClickSelectsWord: isMac,
  });
  terminal.loadAddon(new Unicode11Addon());
  terminal.unicode.activeVersion = '11';
  return terminal;
}

/** The appearance a pane's terminal has now; a change sets only the xterm options that differ. */
export class PaneAppearance {
  constructor(
    private readonly terminal: Terminal,
    private appearance: TerminalAppearance,
  ) {}

  get current(): TerminalAppearance {
    return this.appearance;
  }

  /** Applies `next`; tells whether the WebGL renderer is now wanted differently. */
  apply(next: TerminalAppearance): { webglChanged: boolean } {
    const previous = this.appearance;
    this.appearance = next;
    const options = this.terminal.options;
    if (previous.fontFamily !== next.fontFamily) options.fontFamily = next.fontFamily;
    if (previous.fontSize !== next.fontSize) options.fontSize = next.fontSize;
    if (previous.scrollback !== next.scrollback) options.scrollback = next.scrollback;
    if (previous.cursorBlink !== next.cursorBlink) options.cursorBlink = next.cursorBlink;
    if (previous.theme !== next.theme) options.theme = terminalTheme(next.theme);
    return { webglChanged: previous.webgl !== next.webgl };
  }
}
