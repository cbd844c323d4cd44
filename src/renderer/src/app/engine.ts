import type { EngineConnection } from '../transport/engineConnection';
import { InputPriority } from '../terminal/inputPriority';
import { PaneStreamRouter } from '../terminal/paneStreamRouter';

let connection: EngineConnection | undefined;

/** Per-pane output and block events, from the connection to the pane sessions. */
export const paneStreams = new PaneStreamRouter();

/**
 * Which pane's output goes to xterm first (the one typed in); one for every pane of the page.
 * While the user types, the page carries `data-typing` (what animates pauses, blocks.css).
 */
export const inputPriority = new InputPriority((typing) => document.documentElement.toggleAttribute('data-typing', typing));

export function setEngine(engine: EngineConnection): void {
  connection = engine;
}

/** The app's one engine connection; set at startup before anything renders. */
export function engine(): EngineConnection {
  if (!connection) throw new Error('The engine connection is not set up yet.');
  return connection;
}
