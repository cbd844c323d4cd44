import type { IDisposable, ILinkHandler, IBufferRange, Terminal } from '@xterm/xterm';
import { WebLinksAddon } from '@xterm/addon-web-links';
import { isOpenableExternalUrl } from '../../../shared/externalLinks';
import { isMac } from '../platform/platform';
import { useLinkStore, openExternalLink } from './linkStore';
import { linkTextDiffers, visibleLinkText } from './linkText';

/** What the links need from their pane. */
export interface TerminalLinksOwner {
  /** Gives the keyboard back to the pane's terminal (after the open question). */
  focus(): void;
}

/** Links open on Ctrl+click (Cmd+click on macOS), as in VS Code and iTerm2. */
export function isOpenClick(event: MouseEvent): boolean {
  return isMac ? event.metaKey : event.ctrlKey;
}

/**
 * A pane's links: OSC 8 hyperlinks (xterm's linkHandler) and plain URLs in the output
 * (WebLinksAddon). Hovering one shows its target; Ctrl+click (Cmd+click) opens http, https
 * and mailto targets, asking first when an OSC 8 link's text names another destination
 * (linkText.ts). OSC 8 links are found whatever their scheme, so the tip can say why a
 * file:// or ssh:// link does not open.
 */
export class TerminalLinks implements IDisposable {
  private disposed = false;

  constructor(
    private readonly terminal: Terminal,
    private readonly owner: TerminalLinksOwner,
  ) {
    const osc8: ILinkHandler = {
      allowNonHttpProtocols: true,
      activate: (event, target, range) => this.activate(event, target, this.textOf(range)),
      hover: (event, target, range) => this.hover(event, target, this.textOf(range)),
      leave: () => this.leave(),
    };
    terminal.options.linkHandler = osc8;
    // A plain URL's text is its target.
    terminal.loadAddon(
      new WebLinksAddon((event, url) => this.activate(event, url, url), {
        hover: (event, url) => this.hover(event, url, url),
        leave: () => this.leave(),
      }),
    );
  }

  dispose(): void {
    this.disposed = true;
    useLinkStore.getState().hideHover(this);
  }

  private textOf(range: IBufferRange): string {
    return visibleLinkText(this.terminal.buffer.active, this.terminal.cols, range);
  }

  /** A click on a link (xterm calls this on the mouse-up over the same link). */
  activate(event: MouseEvent, target: string, text: string): void {
    if (!isOpenClick(event) || !isOpenableExternalUrl(target)) return;
    const links = useLinkStore.getState();
    links.hideHover(this);
    if (text !== target && linkTextDiffers(text, target)) {
      links.askToOpen({ target, text, returnFocus: () => this.returnFocus() });
      return;
    }
    openExternalLink(target);
  }

  hover(event: MouseEvent, target: string, text: string): void {
    if (this.disposed) return;
    useLinkStore.getState().showHover({
      source: this,
      target,
      openable: isOpenableExternalUrl(target),
      textDiffers: text !== target && linkTextDiffers(text, target),
      x: event.clientX,
      y: event.clientY,
    });
  }

  /** The pointer left the link, or the terminal left the screen: the tip goes. */
  leave(): void {
    useLinkStore.getState().hideHover(this);
  }

  private returnFocus(): void {
    if (!this.disposed) this.owner.focus();
  }
}
