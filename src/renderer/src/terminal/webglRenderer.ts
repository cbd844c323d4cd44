import type { Terminal } from '@xterm/xterm';
import { WebglAddon } from '@xterm/addon-webgl';

let webgl2Supported: boolean | undefined;

/** Asked once per page: headless Chromium with --disable-gpu has no WebGL2 at all. */
function hasWebgl2(): boolean {
  if (webgl2Supported === undefined) {
    try {
      const canvas = document.createElement('canvas');
      const context = canvas.getContext('webgl2');
      webgl2Supported = context !== null;
      context?.getExtension('WEBGL_lose_context')?.loseContext();
    } catch {
      webgl2Supported = false;
    }
  }
  return webgl2Supported;
}

/**
 * Loads the GPU renderer when the machine can do it. Returns undefined (DOM renderer stays)
 * when it cannot; `onLost` runs after a context loss has already fallen back to the DOM.
 */
export function loadWebglRenderer(terminal: Terminal, onLost: () => void): WebglAddon | undefined {
  if (!hasWebgl2()) return undefined;
  let addon: WebglAddon;
  try {
    addon = new WebglAddon();
    terminal.loadAddon(addon);
  } catch (error) {
    console.info('[tandem] WebGL renderer unavailable, using the DOM renderer:', error);
    webgl2Supported = false;
    return undefined;
  }
  addon.onContextLoss(() => {
    addon.dispose();
    onLost();
  });
  return addon;
}

/** One terminal's GPU renderer while it is wanted. After a lost context the DOM renderer stays for good. */
export class WebglRendererSlot {
  private addon: WebglAddon | undefined;
  private lost = false;

  constructor(private readonly terminal: Terminal) {}

  update(wanted: boolean): void {
    if (wanted && !this.lost) {
      this.addon ??= loadWebglRenderer(this.terminal, () => {
        this.addon = undefined;
        this.lost = true;
      });
    } else {
      this.dispose();
    }
  }

  dispose(): void {
    const addon = this.addon;
    this.addon = undefined;
    try {
      addon?.dispose();
    } catch {
      // A lost context can make dispose throw; the DOM renderer takes over either way.
    }
  }
}
