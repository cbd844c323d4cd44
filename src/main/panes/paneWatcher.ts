import type { Block } from '../../shared/blocks';

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
