import type { Block } from '../../shared/blocks';
import { DisposableStore, toDisposable, type Disposable, type Event } from '../../shared/events';
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
  /**
   * Runs `work` after the output being read (at once when none is), in order; `sendFirst`: once
   * that output is on its way to the client.
   */
  afterOutput: (work: () => void, sendFirst: boolean) => void;
}

/**
 * Wires `watcher` to the pane's events until the returned Disposable is disposed. What a chunk
 * of output tells reaches it after the chunk was read, in order; a block's start and end, a
 * prompt and the alternate screen after the chunk has been handed to the client: what
 * watchers do then (the step runner, history, hints, the user's watchers) must not hold up
 * the frame that shows the prompt.
 */
export function watchPane(watcher: PaneWatcher, { tracker, stream, exited, commandTyped, afterOutput }: PaneEvents): Disposable {
  const watching = new DisposableStore();
  let live = true;
  watching.add(toDisposable(() => (live = false)));
  const later =
    <T>(sendFirst: boolean, hear: (value: T) => void) =>
    (value: T) =>
      afterOutput(() => {
        if (live) hear(value);
      }, sendFirst);
  if (watcher.blockStarted) watching.add(tracker.onStarted(later(true, ({ block }) => watcher.blockStarted!(block))));
  if (watcher.blockFinished) watching.add(tracker.onFinished(later(true, (block) => watcher.blockFinished!(block))));
  if (watcher.promptShown) watching.add(tracker.onPromptShown(later(true, () => watcher.promptShown!())));
  if (watcher.alternateScreen) watching.add(stream.onAlternateScreen(later(true, () => watcher.alternateScreen!())));
  // Every chunk: these must not make each its own frame (a flood is batched).
  if (watcher.output) watching.add(stream.onOutput(later(false, () => watcher.output!())));
  if (watcher.blockOutput) watching.add(stream.onBlockOutput(later(false, ({ blockId, bytes }) => watcher.blockOutput!(blockId, bytes))));
  if (watcher.exited) watching.add(exited(() => watcher.exited!()));
  if (watcher.commandTyped) watching.add(commandTyped((command) => watcher.commandTyped!(command)));
  return watching;
}
