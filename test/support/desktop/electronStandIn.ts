import { runInNewContext } from 'node:vm';
import type {
  CapturerSource,
  ElectronInputEvent,
  ElectronRectangle,
  ElectronSurface,
  ElectronWindow,
  NativeImageLike,
} from '../../../src/main/desktop/electron/electronSurface';
import { encodePng } from '../../../src/main/desktop/raster/pngEncoding';

// A stand-in for the edge of the world the engine cannot run here: Electron's API (the
// window, its page, desktopCapturer, screen, clipboard, notifications).

/** A stand-in for Electron's NativeImage: BGRA pixels, nearest-neighbour resize, PNG through the engine's encoder. */
export class StandInImage implements NativeImageLike {
  constructor(
    readonly width: number,
    readonly height: number,
    readonly bgra: Buffer = Buffer.alloc(width * height * 4, 0x80),
  ) {}
  isEmpty() {
    return this.width === 0 || this.height === 0;
  }
  getSize() {
    return { width: this.width, height: this.height };
  }
  resize({ width, height }: { width: number; height: number }): NativeImageLike {
    const out = Buffer.alloc(width * height * 4);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const from = (Math.floor((y * this.height) / height) * this.width + Math.floor((x * this.width) / width)) * 4;
        this.bgra.copy(out, (y * width + x) * 4, from, from + 4);
      }
    }
    return new StandInImage(width, height, out);
  }
  toBitmap() {
    return Buffer.from(this.bgra);
  }
  toPNG() {
    const rgba = new Uint8Array(this.bgra.length);
    for (let i = 0; i < rgba.length; i += 4) rgba.set([this.bgra[i + 2]!, this.bgra[i + 1]!, this.bgra[i]!, 255], i);
    return encodePng({ width: this.width, height: this.height, data: rgba });
  }
}

/**
 * A stand-in for the page in Tandem's window, as far as a script run in it can see: pane
 * elements found by the selector PaneView's attributes answer to, with their bounding boxes in
 * CSS pixels. Scripts really run (node:vm) against this document.
 */
export class StandInPage {
  /** Bounding boxes of the pane elements by pane id; a pane in a background tab is 0×0. */
  readonly panes = new Map<number, ElectronRectangle>();
  /** The worlds scripts were run in. */
  readonly worlds: number[] = [];
  /** A page that never answers (loading after a crash). */
  silent = false;

  run(worldId: number, code: string): Promise<unknown> {
    this.worlds.push(worldId);
    if (this.silent) return new Promise(() => undefined);
    const document = {
      querySelector: (selector: string) => {
        const match = /^\[data-testid="pane"\]\[data-pane-id="(\d+)"\]$/.exec(selector);
        const box = match ? this.panes.get(Number(match[1])) : undefined;
        if (!box) return null;
        return { getBoundingClientRect: () => ({ left: box.x, top: box.y, width: box.width, height: box.height, right: box.x + box.width, bottom: box.y + box.height }) };
      },
    };
    return Promise.resolve(runInNewContext(code, { document }));
  }
}

export interface StandInWindow extends ElectronWindow {
  readonly page: StandInPage;
  readonly captured: (ElectronRectangle | undefined)[];
  readonly events: ElectronInputEvent[];
  focused: number;
  zoomFactor: number;
  close(): void;
}

/** Tandem's window: content of `width × height` DIPs at 100,50, drawn at `scaleFactor` device pixels per DIP. */
export function standInWindow(width = 1200, height = 800, scaleFactor = 2): StandInWindow {
  let destroyed = false;
  const window: StandInWindow = {
    page: new StandInPage(),
    captured: [],
    events: [],
    focused: 0,
    zoomFactor: 1,
    close: () => void (destroyed = true),
    isDestroyed: () => destroyed,
    getTitle: () => 'Tandem',
    getContentBounds: () => ({ x: 100, y: 50, width, height }),
    isFocused: () => true,
    isMinimized: () => false,
    focus: () => void window.focused++,
    webContents: {
      capturePage: async (rect) => {
        window.captured.push(rect);
        const area = rect ?? { x: 0, y: 0, width, height };
        return new StandInImage(area.width * scaleFactor, area.height * scaleFactor);
      },
      sendInputEvent: (event) => void window.events.push(event),
      getZoomFactor: () => window.zoomFactor,
      executeJavaScriptInIsolatedWorld: (worldId, scripts) => window.page.run(worldId, scripts.map((script) => script.code).join('\n')),
    },
  };
  return window;
}

export interface StandInElectron extends ElectronSurface {
  /** The window open now; set it to another (reopened) or to undefined (closed). */
  current: StandInWindow | undefined;
  notifications: string[];
  sources: CapturerSource[];
}

/** Electron with Tandem's window open (see standInWindow), on one 1920×1080 display. */
export function standInElectron(width = 1200, height = 800, scaleFactor = 2): StandInElectron {
  let clipboard = '';
  const electron: StandInElectron = {
    current: standInWindow(width, height, scaleFactor),
    notifications: [],
    sources: [],
    pid: 4321,
    window: () => electron.current,
    desktopCapturer: { getSources: async () => electron.sources },
    screen: { getAllDisplays: () => [{ id: 7, bounds: { x: 0, y: 0, width: 1920, height: 1080 }, scaleFactor }], getPrimaryDisplay: () => ({ id: 7 }) },
    clipboard: { readText: () => clipboard, writeText: (text) => void (clipboard = text) },
    showNotification: (title, body) => void electron.notifications.push(`${title}: ${body}`),
  };
  return electron;
}
