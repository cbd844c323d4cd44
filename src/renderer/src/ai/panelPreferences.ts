/** The AI panel's place on screen, kept in the page's storage across restarts. */
export interface PanelPreferences {
  open: boolean;
  width: number;
}

const STORAGE_KEY = 'tandem.aiPanel';
export const DEFAULT_PANEL_WIDTH = 400;
export const MIN_PANEL_WIDTH = 280;
const MAX_PANEL_WIDTH = 1_200;
/** The terminals always keep at least this much of the window. */
const MIN_WORKSPACE_WIDTH = 240;

export function clampPanelWidth(width: number, viewportWidth: number): number {
  if (!Number.isFinite(width)) return DEFAULT_PANEL_WIDTH;
  const max = Math.max(MIN_PANEL_WIDTH, Math.min(MAX_PANEL_WIDTH, viewportWidth - MIN_WORKSPACE_WIDTH));
  return Math.round(Math.min(max, Math.max(MIN_PANEL_WIDTH, width)));
}

type ReadableStorage = Pick<Storage, 'getItem'>;
type WritableStorage = Pick<Storage, 'setItem'>;

export function loadPanelPreferences(storage: ReadableStorage | undefined): PanelPreferences {
  const defaults = { open: false, width: DEFAULT_PANEL_WIDTH };
  try {
    const text = storage?.getItem(STORAGE_KEY);
    if (!text) return defaults;
    const saved = JSON.parse(text) as Partial<Record<keyof PanelPreferences, unknown>>;
    return {
      open: typeof saved.open === 'boolean' ? saved.open : defaults.open,
      width: typeof saved.width === 'number' && Number.isFinite(saved.width) ? saved.width : defaults.width,
    };
  } catch {
    return defaults;
  }
}

export function savePanelPreferences(storage: WritableStorage | undefined, preferences: PanelPreferences): void {
  try {
    storage?.setItem(STORAGE_KEY, JSON.stringify(preferences));
  } catch {
    // Storage disabled or full: the panel starts closed at its default width next time.
  }
}

/** The page's localStorage where there is one (not in unit tests, not when disabled). */
export function pageStorage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}
