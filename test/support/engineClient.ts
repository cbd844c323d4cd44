import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { WebSocket } from 'ws';
import type { Desktop } from '../../src/main/desktop/desktop';
import type { ElectronSurface } from '../../src/main/desktop/electron/electronSurface';
import { Engine } from '../../src/main/engine/engine';
import { tandemPaths } from '../../src/main/settings/paths';
import { WebServer } from '../../src/main/server/webServer';
import type { Block } from '../../src/shared/blocks';
import {
  FrameKind,
  decodeFrame,
  encodeAck,
  encodeFrame,
  type EventName,
  type Events,
  type Method,
  type Params,
  type Results,
} from '../../src/shared/protocol';
import { shellTimeout } from './shellTimeout';
import { makeTestHome as makeHome, removeTestHome, testHomeEnv } from './testHome';

/** A temp HOME with quiet startup files and XDG dirs inside it. */
export function makeTestHome(): { home: string; env: NodeJS.ProcessEnv; cleanup(): void } {
  const home = makeHome();
  return { home, env: testHomeEnv(home), cleanup: () => removeTestHome(home) };
}

type AnyEvent = { event: EventName; payload: unknown };

/**
 * A protocol-level client over the real WebSocket transport: what the renderer does, minus
 * the UI. Keeps every event and each pane's output so tests can wait on them.
 */
export class EngineClient {
  readonly events: AnyEvent[] = [];
  private readonly output = new Map<number, Buffer[]>();
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private waiters: (() => void)[] = [];
  /** When false, output is not acknowledged (to exercise flow control). */
  autoAck = true;

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      const bytes = Buffer.from(data as Buffer);
      if (isBinary) {
        const frame = decodeFrame(bytes);
        if (frame?.kind === FrameKind.Output) {
          const list = this.output.get(frame.paneId) ?? [];
          list.push(Buffer.from(frame.payload));
          this.output.set(frame.paneId, list);
          if (this.autoAck) ws.send(encodeAck(frame.paneId, frame.payload.length));
        }
      } else {
        const message = JSON.parse(bytes.toString('utf8'));
        if ('id' in message) {
          const waiter = this.pending.get(message.id);
          this.pending.delete(message.id);
          if (message.error) waiter?.reject(new Error(message.error.message));
          else waiter?.resolve(message.result);
        } else {
          this.events.push(message);
        }
      }
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  static async connect(server: WebServer): Promise<EngineClient> {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=${server.token}`, {
      headers: { origin: `http://127.0.0.1:${server.port}` },
    });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    return new EngineClient(ws);
  }

  request<M extends Method>(method: M, params: Params<M>): Promise<Results[M]> {
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ id, method, params }));
    return new Promise((resolve, reject) => this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject }));
  }

  type(paneId: number, text: string): void {
    this.ws.send(encodeFrame(FrameKind.Input, paneId, Buffer.from(text, 'utf8')));
  }

  /** Sends keys one at a time, as a person types, so the shell echoes between them. */
  async typeKeyByKey(paneId: number, text: string): Promise<void> {
    for (const key of text) {
      this.type(paneId, key);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** A push-to-talk recording, as the renderer sends it before its `voice.transcribe`. */
  sendVoiceClip(clipId: number, wav: Uint8Array): void {
    this.ws.send(encodeFrame(FrameKind.VoiceClip, clipId, wav));
  }

  ack(paneId: number, bytes: number): void {
    this.ws.send(encodeAck(paneId, bytes));
  }

  outputOf(paneId: number): Buffer {
    return Buffer.concat(this.output.get(paneId) ?? []);
  }

  textOf(paneId: number): string {
    return this.outputOf(paneId).toString('utf8');
  }

  eventsOf<E extends EventName>(name: E): Events[E][] {
    return this.events.filter((event) => event.event === name).map((event) => event.payload as Events[E]);
  }

  /**
   * Resolves when `predicate` holds, re-checking on every message; rejects after `timeoutMs`
   * (enough on a quiet machine; scaled by shellTimeout for this one).
   */
  async waitFor<T>(predicate: () => T | undefined | null | false, timeoutMs = 15_000, what = "condition"): Promise<T> {
    const deadline = Date.now() + shellTimeout(timeoutMs);
    for (;;) {
      const value = predicate();
      if (value) return value;
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`Timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(remaining, 100));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /**
   * The block's end event. The output it describes is batched and may arrive just after it:
   * read the text with `block.output`, or wait for it in `textOf`, not straight after this.
   */
  waitForBlock(paneId: number, command: string, timeoutMs = 15_000): Promise<Block> {
    return this.waitFor(
      () => this.eventsOf('block.finished').find((block) => block.paneId === paneId && block.command === command),
      timeoutMs,
      `block "${command.slice(0, 60)}" to finish`,
    );
  }

  /**
   * Types a command and waits for the block it makes, among those finished after it was typed:
   * its command equal to `command`, or (`contains`) holding it — for a command the shell
   * records otherwise, such as one typed with a leading blank.
   */
  runCommand(paneId: number, command: string, { contains = false, timeoutMs = 20_000 } = {}): Promise<Block> {
    const before = this.eventsOf('block.finished').length;
    this.type(paneId, `${command}\r`);
    const wanted = contains ? command.trim() : command;
    return this.waitFor(
      () => this.eventsOf('block.finished').slice(before).find((block) => block.paneId === paneId && (contains ? block.command.includes(wanted) : block.command === wanted)),
      timeoutMs,
      `block "${command.slice(0, 60)}"`,
    );
  }

  waitForPrompt(paneId: number, count = 1, timeoutMs = 15_000): Promise<unknown> {
    return this.waitFor(
      () => this.eventsOf('pane.state').filter((s) => s.paneId === paneId && s.state === 'PROMPT').length >= count,
      timeoutMs,
      `prompt #${count} in pane ${paneId}`,
    );
  }

  close(): void {
    this.ws.close();
  }
}

/** An engine + browser-mode server on loopback, in a temp home. */
export async function startEngine(
  options: {
    shell?: string;
    configToml?: string;
    env?: NodeJS.ProcessEnv;
    agentRetryBaseMs?: number;
    grantsKeptWithoutWindowMs?: number;
    /** How long the shell integration may take to report in (default 10 s). */
    integrationTimeoutMs?: number;
    systemPolicyToml?: string;
    /** A stand-in for the Electron app's window and APIs (the engine then runs as in the desktop app). */
    electron?: ElectronSurface;
    /** An existing test home (a restart): it is kept when the engine stops; its owner removes it. */
    home?: string;
    historyBatchMs?: number;
    /** How the engine starts `tandem` again (child agents, watcher runs); default: it cannot. */
    selfCommand?: readonly string[];
    /** The desktop capability (default: chosen for this system). */
    desktop?: Desktop;
  } = {},
) {
  const testHome = options.home ? { home: options.home, env: testHomeEnv(options.home), cleanup: () => {} } : makeTestHome();
  if (options.configToml !== undefined) {
    mkdirSync(join(testHome.home, '.config/tandem'), { recursive: true });
    writeFileSync(join(testHome.home, '.config/tandem/config.toml'), options.configToml);
  }
  // The system policy lives in the test home, so /etc/tandem on this machine never counts.
  const systemPolicyFile = join(testHome.home, 'etc/tandem/policy.toml');
  if (options.systemPolicyToml !== undefined) {
    mkdirSync(join(systemPolicyFile, '..'), { recursive: true });
    writeFileSync(systemPolicyFile, options.systemPolicyToml);
  }
  const engine = new Engine({
    version: 'test',
    systemPolicyFile,
    env: { ...testHome.env, ...options.env },
    // An XDG variable among `env` moves Tandem's files with it.
    paths: tandemPaths({ ...testHome.env, ...options.env }),
    shellOverride: options.shell,
    agentRetryBaseMs: options.agentRetryBaseMs,
    grantsKeptWithoutWindowMs: options.grantsKeptWithoutWindowMs,
    integrationTimeoutMs: options.integrationTimeoutMs,
    electron: options.electron,
    historyBatchMs: options.historyBatchMs,
    selfCommand: options.selfCommand,
    desktop: options.desktop,
  });
  const server = new WebServer({ engine, rendererDir: join(__dirname, '../../out/renderer') });
  await server.listen();
  return {
    engine,
    server,
    home: testHome.home,
    async stop() {
      await engine.shutdown();
      await server.close();
      testHome.cleanup();
    },
  };
}

/**
 * For a test file: `open(options)` starts an engine with a connected, greeted client; both
 * are torn down after each test, with any other client handed to `track`.
 */
export function useEngineClient() {
  let running: Awaited<ReturnType<typeof startEngine>> | undefined;
  const clients: EngineClient[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await running?.stop();
    running = undefined;
  });
  const open = async (options: Parameters<typeof startEngine>[0] = {}) => {
    running = await startEngine(options);
    const client = await EngineClient.connect(running.server);
    clients.push(client);
    const hello = await client.request('hello', {});
    return { engine: running, client, hello };
  };
  const track = (client: EngineClient): EngineClient => {
    clients.push(client);
    return client;
  };
  return { open, track };
}
