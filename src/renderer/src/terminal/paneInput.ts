import type { IDisposable, Terminal } from '@xterm/xterm';
import { writeClipboard } from '../platform/clipboard';
import type { InputPriority } from './inputPriority';

const COPY_ON_SELECT_DELAY_MS = 150;

/** What the input side needs to know about its pane, asked each time (the pane id changes on restart). */
export interface PaneInputOwner {
  paneId(): number;
  hasExited(): boolean;
  copyOnSelect(): boolean;
  sendInput(paneId: number, data: string | Uint8Array): void;
  /** The user pressed Enter in a pane whose shell has exited. */
  onRestartRequested(paneId: number): void;
  /** The user pressed Ctrl+D in a pane whose shell has exited. */
  onCloseRequested(paneId: number): void;
  onUserInput(paneId: number): void;
}

/**
 * Keys, pastes and the clipboard of one pane: typed input goes to the engine at once (and
 * tells InputPriority, so the echo comes first); an exited pane takes only Enter, to restart,
 * and Ctrl+D, to close.
 */
export class PaneInput {
  private copyTimer = 0;
  private listeners: IDisposable[] = [];

  constructor(
    private readonly terminal: Terminal,
    private readonly owner: PaneInputOwner,
    private readonly priority: InputPriority,
  ) {}

  /** Listens to xterm's input and to native paste events on `host`, until disposed. */
  listen(host: HTMLElement): void {
    // Native paste (Ctrl+Shift+V, Cmd+V, middle click) lands here; route it through
    // term.paste() so bracketed paste mode is honoured and exited panes ignore it.
    const onPaste = (event: ClipboardEvent) => {
      event.preventDefault();
      event.stopPropagation();
      this.paste(event.clipboardData?.getData('text/plain') ?? '');
    };
    host.addEventListener('paste', onPaste, true);
    this.listeners = [
      { dispose: () => host.removeEventListener('paste', onPaste, true) },
      this.terminal.onData((data) => this.onInput(data)),
      this.terminal.onBinary((data) => {
        if (!this.owner.hasExited()) {
          this.owner.sendInput(this.owner.paneId(), Uint8Array.from(data, (char) => char.charCodeAt(0) & 0xff));
        }
      }),
      this.terminal.onSelectionChange(() => this.onSelectionChange()),
    ];
  }

  /** Types text into the pane as if the user did (block rerun). */
  typeText(text: string): void {
    if (!this.owner.hasExited()) this.owner.sendInput(this.owner.paneId(), text);
  }

  paste(text: string): void {
    if (!this.owner.hasExited() && text) this.terminal.paste(text);
  }

  copySelection(): boolean {
    if (!this.terminal.hasSelection()) return false;
    void writeClipboard(this.terminal.getSelection());
    return true;
  }

  dispose(): void {
    window.clearTimeout(this.copyTimer);
    this.listeners.forEach((listener) => listener.dispose());
  }

  private onInput(data: string): void {
    const paneId = this.owner.paneId();
    if (this.owner.hasExited()) {
      if (data.includes('\r')) this.owner.onRestartRequested(paneId);
      else if (data.includes('\x04')) this.owner.onCloseRequested(paneId);
      return;
    }
    this.priority.noteKeystroke(paneId);
    this.owner.sendInput(paneId, data);
    this.owner.onUserInput(paneId);
  }

  private onSelectionChange(): void {
    if (!this.owner.copyOnSelect()) return;
    window.clearTimeout(this.copyTimer);
    this.copyTimer = window.setTimeout(() => this.copySelection(), COPY_ON_SELECT_DELAY_MS);
  }
}
