import type { Event } from '../../../shared/events';
import type { TriggerEvent } from '../firing/firingGate';
import type { WatcherConfig } from '../watcherSchema';
import { startBlockTrigger } from './blockTrigger';
import { startFileTrigger } from './fileTrigger';
import { startScheduleTrigger } from './scheduleTrigger';
import { SCREEN_CHANGE_NOT_BUILT } from './screenTrigger';
import type { UserBlock } from './userBlocks';

/** What the service needs of a started trigger. */
export interface RunningTrigger {
  /** Why it does not watch although enabled: screen_change is not built yet, a folder is missing. */
  inactive?: string;
  nextRun?(): number | undefined;
  dispose(): void;
}

export interface TriggerContext {
  /** The watcher's folder (its cwd resolved). */
  cwd: string;
  home: string;
  finishedBlocks: Event<UserBlock>;
  focusedPane(): number | undefined;
  /** A file trigger could not start (or failed later); the watcher shows why. */
  failed(why: string): void;
}

/** Starts the watcher's trigger; `emit` gets each event it sees. Voice watchers are fired by the service itself (voicePhraseHeard). */
export function startTrigger(watcher: WatcherConfig, context: TriggerContext, emit: (event: TriggerEvent) => void): RunningTrigger {
  switch (watcher.trigger) {
    case 'file_change': {
      let stopped = false;
      const started = startFileTrigger({ globs: watcher.path, root: context.cwd, home: context.home }, emit);
      started.catch((error: unknown) => context.failed(`not watching: ${(error as Error).message}`));
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
    case 'screen_change':
      return { inactive: SCREEN_CHANGE_NOT_BUILT, dispose: () => undefined };
    case 'voice':
      return { dispose: () => undefined };
  }
}
