import type { Event } from '../../../shared/events';
import type { Desktop } from '../../desktop/desktop';
import type { TriggerEvent } from '../firing/firingGate';
import type { WatcherConfig } from '../watcherSchema';
import { startBlockTrigger } from './blockTrigger';
import { startFileTrigger } from './fileTrigger';
import { startScheduleTrigger } from './scheduleTrigger';
import { startScreenTrigger, type OneAtATime } from './screenTrigger';
import type { UserBlock } from './userBlocks';

/** What the service needs of a started trigger. */
export interface RunningTrigger {
  nextRun?(): number | undefined;
  dispose(): void;
}

export interface TriggerContext {
  /** For screen_change watchers; absent where Tandem has no desktop capability. */
  desktop: Desktop | undefined;
  ocr: OneAtATime;
  /** Why the trigger cannot watch (a missing folder, no X11 desktop, no Tesseract), or undefined once it can. */
  inactive(why: string | undefined): void;
  /** The watcher's folder (its cwd resolved). */
  cwd: string;
  home: string;
  finishedBlocks: Event<UserBlock>;
  focusedPane(): number | undefined;
  /** A file change a watcher run made: fires no watcher. */
  ownWrite?(path: string): boolean;
}

/** Starts the watcher's trigger; `emit` gets each event it sees. Voice watchers are fired by the service itself (voicePhraseHeard). */
export function startTrigger(watcher: WatcherConfig, context: TriggerContext, emit: (event: TriggerEvent) => void): RunningTrigger {
  switch (watcher.trigger) {
    case 'file_change': {
      let stopped = false;
      // On a big tree the subscriptions take seconds (a watch per folder): until then a save is not seen, and the list says so.
      context.inactive('starting (a save is not seen until its folders are watched)');
      const started = startFileTrigger({ globs: watcher.path, root: context.cwd, home: context.home, ownWrite: context.ownWrite }, emit);
      started.then(
        () => !stopped && context.inactive(undefined),
        (error: unknown) => !stopped && context.inactive((error as Error).message),
      );
      return {
        dispose: () => {
          if (stopped) return;
          stopped = true;
          void started.then((trigger) => trigger.dispose()).catch(() => undefined);
        },
      };
    }
    case 'block': {
      const subscription = startBlockTrigger(watcher, { finishedBlocks: context.finishedBlocks, focusedPane: context.focusedPane }, emit);
      return { dispose: () => subscription.dispose() };
    }
    case 'schedule': {
      const schedule = startScheduleTrigger(watcher, emit);
      return { nextRun: () => schedule.nextRun(), dispose: () => schedule.dispose() };
    }
    case 'screen_change': {
      const screen = startScreenTrigger(watcher, { desktop: context.desktop, ocr: context.ocr, inactive: context.inactive }, emit);
      return { dispose: () => screen.dispose() };
    }
    case 'voice':
      return { dispose: () => undefined };
  }
}
