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

export interface ElectronSurface {
  /** Tandem's main window. */
  window: {
    getTitle(): string;
    getContentBounds(): ElectronRectangle;
    isFocused(): boolean;
    isMinimized(): boolean;
    focus(): void;
    webContents: {
      capturePage(rect?: ElectronRectangle): Promise<NativeImageLike>;
      sendInputEvent(event: ElectronInputEvent): void;
    };
  };
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
