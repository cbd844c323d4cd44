/**
 * The few Electron APIs the Electron desktop uses, as structural types: `src/main/electron/`
 * passes the real objects (they fit these shapes), tests pass stand-ins. Nothing here imports
 * Electron, so the engine stays plain Node.
 */
export interface ElectronRectangle {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface NativeImageLike {
  isEmpty(): boolean;
  getSize(): { width: number; height: number };
  resize(options: { width: number; height: number; quality?: 'good' | 'better' | 'best' }): NativeImageLike;
  toPNG(): Buffer;
  /** Raw BGRA pixels (Electron's bitmap order on every supported platform). */
  toBitmap(): Buffer;
}

export type ElectronInputEvent =
  | { type: 'mouseMove' | 'mouseDown' | 'mouseUp'; x: number; y: number; button?: 'left' | 'middle' | 'right'; clickCount?: number }
  | { type: 'mouseWheel'; x: number; y: number; deltaX: number; deltaY: number; wheelTicksX: number; wheelTicksY: number }
  | { type: 'keyDown' | 'keyUp' | 'char'; keyCode: string; modifiers?: KeyModifier[] };

export type KeyModifier = 'shift' | 'control' | 'alt' | 'meta';

export interface CapturerSource {
  id: string;
  name: string;
  display_id: string;
  thumbnail: NativeImageLike;
}

/** Tandem's main window: what of Electron's BrowserWindow the desktop uses. */
export interface ElectronWindow {
  /** True once the window was closed (its object outlives it). */
  isDestroyed(): boolean;
  getTitle(): string;
  getContentBounds(): ElectronRectangle;
  isFocused(): boolean;
  isMinimized(): boolean;
  focus(): void;
  webContents: {
    /** `rect` in the page's DIPs (CSS pixels times the zoom factor). */
    capturePage(rect?: ElectronRectangle): Promise<NativeImageLike>;
    sendInputEvent(event: ElectronInputEvent): void;
    getZoomFactor(): number;
    /** Runs `scripts` in a JavaScript world of their own beside the page's (same DOM, none of the page's globals). */
    executeJavaScriptInIsolatedWorld(worldId: number, scripts: { code: string }[]): Promise<unknown>;
  };
}

export interface ElectronSurface {
  /**
   * Tandem's main window as it is now, asked on every use: the user may close it and open a
   * new one (a second `tandem`), and the desktop follows. Undefined while none is open.
   */
  window(): ElectronWindow | undefined;
  desktopCapturer: {
    getSources(options: { types: ('screen' | 'window')[]; thumbnailSize: { width: number; height: number }; fetchWindowIcons?: boolean }): Promise<CapturerSource[]>;
  };
  screen: {
    getAllDisplays(): { id: number; bounds: ElectronRectangle; scaleFactor: number }[];
    getPrimaryDisplay(): { id: number };
  };
  /** readText is a promise in current Electron, a plain value in older ones. */
  clipboard: { readText(): string | Promise<string>; writeText(text: string): void | Promise<void> };
  /** `new Notification({ title, body }).show()` in the adapter. */
  showNotification(title: string, body: string): void;
  /** The process id of Tandem's window (process.pid of the main process). */
  pid: number;
}
