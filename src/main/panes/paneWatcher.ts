import type { Block } from '../../shared/blocks';
import { DisposableStore, type Disposable, type Event } from '../../shared/events';
import type { BlockTracker } from '../blocks/blockTracker';
import type { PaneStream } from './paneStream';

/** What a watcher of a pane hears (the step runner): blocks, prompts, output, the shell's end. */
export interface PaneWatcher {
  blockStarted?(block: Block): void;
  blockFinished?(block: Block): void;
  /** Tandem typed a whole command at the prompt (a plan step, `! cmd` from the panel). */
  commandTyped?(command: string): void;
  /** A prompt appeared (every PROMPT state entry). */
  promptShown?(): void;
  alternateScreen?(): void;
  /** Output arrived (no bytes: watchers only need to know the program is alive). */
  output?(): void;
  /** What the running block printed, as it is read, before its end is reported. */
  blockOutput?(blockId: string, bytes: Uint8Array): void;
  exited?(): void;
}

/** What a pane's watchers are wired to. */
export interface PaneEvents {
  tracker: BlockTracker;
  stream: PaneStream;
  exited: Event<void>;
  commandTyped: Event<string>;
}

/** Wires `watcher` to the pane's events until the returned Disposable is disposed. */
export function watchPane(watcher: PaneWatcher, { tracker, stream, exited, commandTyped }: PaneEvents): Disposable {
  const watching = new DisposableStore();
  if (watcher.blockStarted) watching.add(tracker.onStarted(({ block }) => watcher.blockStarted!(block)));
  if (watcher.blockFinished) watching.add(tracker.onFinished((block) => watcher.blockFinished!(block)));
  if (watcher.promptShown) watching.add(tracker.onPromptShown(() => watcher.promptShown!()));
  if (watcher.alternateScreen) watching.add(stream.onAlternateScreen(() => watcher.alternateScreen!()));
  if (watcher.output) watching.add(stream.onOutput(() => watcher.output!()));
  if (watcher.blockOutput) watching.add(stream.onBlockOutput(({ blockId, bytes }) => watcher.blockOutput!(blockId, bytes)));
  if (watcher.exited) watching.add(exited(() => watcher.exited!()));
  if (watcher.commandTyped) watching.add(commandTyped((command) => watcher.commandTyped!(command)));
  return watching;
}
