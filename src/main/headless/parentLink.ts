import { createConnection, type Socket } from 'node:net';
import { z } from 'zod';
import { AgentInputSchema, type AgentInput, type AgentStreamEvent } from './agentStream';

/** The parent's answer to `hello`: the session grants it passes on (`[ai] pass_grants_to_children`). */
const WelcomeSchema = z.strictObject({
  type: z.literal('welcome'),
  grants: z.array(z.strictObject({ shape: z.string().min(1).max(20_000), example: z.string().max(20_000) })).max(1_000),
});
export type PassedGrant = z.infer<typeof WelcomeSchema>['grants'][number];

/** How long a child waits for its parent's welcome before it starts without grants. */
const WELCOME_WAIT_MS = 5_000;

/**
 * A child agent's line to its parent (`tandem agent --parent SOCKET`, started by a spawn_agent
 * step): every event of the run goes there as NDJSON, beside what the child shows in its pane,
 * and the answers to its approval requests come back on it. The parent going away ends the run.
 */
export class ParentLink {
  private pending = '';
  private welcomed: ((grants: PassedGrant[]) => void) | undefined;

  private constructor(
    private readonly socket: Socket,
    onInput: (input: AgentInput) => void,
    onGone: () => void,
  ) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.pending += chunk;
      let end: number;
      while ((end = this.pending.indexOf('\n')) >= 0) {
        const line = this.pending.slice(0, end);
        this.pending = this.pending.slice(end + 1);
        const parsed = safeJson(line);
        const welcome = WelcomeSchema.safeParse(parsed);
        if (welcome.success) this.welcomed?.(welcome.data.grants);
        const input = AgentInputSchema.safeParse(parsed);
        if (input.success) onInput(input.data);
      }
    });
    socket.on('close', () => onGone());
    socket.on('error', () => undefined);
  }

  /**
   * Connects, says who it is and waits for the parent's welcome (the grants it passes on);
   * rejects with a sentence when the parent is not there.
   */
  static connect(path: string, depth: number, onInput: (input: AgentInput) => void, onGone: () => void): Promise<{ link: ParentLink; grants: PassedGrant[] }> {
    return new Promise((resolve, reject) => {
      const socket = createConnection(path);
      socket.once('connect', () => {
        socket.removeAllListeners('error');
        const link = new ParentLink(socket, onInput, onGone);
        const timer = setTimeout(() => link.welcome([]), WELCOME_WAIT_MS);
        link.welcomed = (grants) => {
          clearTimeout(timer);
          link.welcomed = undefined;
          resolve({ link, grants });
        };
        link.send({ type: 'hello', pid: process.pid, depth });
      });
      socket.once('error', (error) => reject(new Error(`--parent ${path}: the parent agent is not there (${error.message}).`)));
    });
  }

  private welcome(grants: PassedGrant[]): void {
    this.welcomed?.(grants);
  }

  event(event: AgentStreamEvent): void {
    this.send(event);
  }

  /** Everything written has gone to the parent. */
  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.socket.destroyed) return resolve();
      this.socket.end(() => resolve());
      setTimeout(resolve, 2_000).unref();
    });
  }

  private send(message: object): void {
    if (!this.socket.destroyed && this.socket.writable) this.socket.write(`${JSON.stringify(message)}\n`);
  }
}

function safeJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
