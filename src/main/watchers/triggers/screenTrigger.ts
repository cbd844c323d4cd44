import { createHash } from 'node:crypto';
import picomatch from 'picomatch';
import type { Desktop, WindowInfo } from '../../desktop/desktop';
import type { TriggerEvent } from '../firing/firingGate';
import type { ScreenChangeWatcher } from '../watcherSchema';

/** How much of a window's text the model is given with a firing. */
const TEXT_CHARS = 4_000;

/** One OCR at a time across every screen watcher: two Tesseracts would take both cores of a small machine. */
export class OneAtATime {
  private last: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const next = this.last.then(work, work);
    this.last = next.catch(() => undefined);
    return next;
  }
}

export interface ScreenTriggerHost {
  /** Absent where there is no desktop capability (a `tandem agent` run). */
  desktop: Desktop | undefined;
  ocr: OneAtATime;
  /** Why the watcher cannot watch (no X11 desktop, no Tesseract), or undefined once it can. */
  inactive(why: string | undefined): void;
}

export interface ScreenTrigger {
  dispose(): void;
}

/** The window a screen watcher reads: `app` is the WM_CLASS class or instance (any case), `title` a glob on the title. */
export function matchingWindow(rule: Pick<ScreenChangeWatcher, 'app' | 'title'>, windows: readonly WindowInfo[]): WindowInfo | undefined {
  const title = rule.title === undefined ? undefined : picomatch(rule.title, { nocase: true, dot: true });
  const app = rule.app?.toLowerCase();
  return windows.find(
    (window) =>
      window.visible &&
      !window.excluded &&
      // Tandem's own window: its notifications and cards must never set a watcher off.
      window.application.toLowerCase() !== 'tandem' &&
      (app === undefined || window.application.toLowerCase() === app || window.instance.toLowerCase() === app) &&
      (title === undefined || title(window.title)),
  );
}

/**
 * A screen_change watcher's trigger (X11): every `interval` it finds the window, captures it,
 * and only when its pixels changed reads it with OCR (one OCR at a time across watchers). With
 * a `pattern` it fires when a line matching it appears that the previous reading did not
 * have; without one, when the text changes. The first reading is the baseline.
 */
export function startScreenTrigger(rule: ScreenChangeWatcher, host: ScreenTriggerHost, emit: (event: TriggerEvent) => void): ScreenTrigger {
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let pixels: string | undefined;
  let previous: { text: string; matching: Set<string> } | undefined;
  const pattern = rule.pattern === undefined ? undefined : new RegExp(rule.pattern, 'm');

  const look = async (desktop: Desktop): Promise<void> => {
    const window = matchingWindow(rule, await desktop.listWindows(abort.signal));
    if (!window) return;
    const shot = await desktop.screenshot({ kind: 'window', windowId: window.id }, abort.signal);
    const hash = createHash('sha1').update(shot.png).digest('hex');
    if (hash === pixels) return;
    pixels = hash;
    const read = await host.ocr.run(() => desktop.readText({ kind: 'window', windowId: window.id }, abort.signal));
    const lines = read.text.split('\n').map((line) => line.trim()).filter(Boolean);
    const text = lines.join('\n');
    const matching = new Set(pattern ? lines.filter((line) => pattern.test(line)) : []);
    const before = previous;
    previous = { text, matching };
    if (!before) return;
    const shown = `"${window.title}" (${window.application})`;
    const details = `Window ${shown} now reads:\n${text.slice(-TEXT_CHARS)}`;
    if (pattern) {
      const appeared = [...matching].filter((line) => !before.matching.has(line));
      if (appeared.length > 0) emit({ reason: `window ${shown}: ${appeared[0]}`, details });
    } else if (text !== before.text) emit({ reason: `window ${shown} changed`, details });
  };

  const poll = async (): Promise<void> => {
    const desktop = host.desktop;
    if (!desktop) return host.inactive('screen_change needs a desktop, and this Tandem has none');
    const availability = await desktop.availability();
    if (!availability.available) return host.inactive(`screen_change cannot watch here: ${availability.reason}`);
    if (availability.lacking?.ocr) return host.inactive(`screen_change cannot read windows here: ${availability.lacking.ocr}`);
    if (!/X11/.test(availability.implementation)) return host.inactive('screen_change needs an X11 desktop (other windows cannot be captured here)');
    host.inactive(undefined);
    const again = async () => {
      try {
        await look(desktop);
      } catch {
        // The window went away mid-look, or the capture failed: the next look tries again.
      }
      if (!abort.signal.aborted) timer = setTimeout(() => void again(), rule.interval);
    };
    await again();
  };
  void poll();
  return {
    dispose: () => {
      abort.abort();
      clearTimeout(timer);
    },
  };
}
