import { spawn, type ChildProcess } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import {
  client,
  ndJsonStream,
  type ClientConnection,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
  type SessionUpdate,
} from '@agentclientprotocol/sdk';
import { TANDEM_BIN } from './agentCli';
import { shellTimeout } from './shellTimeout';
import { waitUntil } from './waitUntil';

/** How the test answers a permission request: an offered option's kind, or the editor's cancel. */
export type PermissionAnswer = 'allow_once' | 'allow_always' | 'reject_once' | 'cancelled';

/**
 * An editor, as far as ACP goes: the official SDK's client side, driving the BUILT
 * `node bin/tandem.js agent --acp` over its stdio. It records every `session/update` and
 * every permission request, and answers the requests from a queue the test fills
 * (`answers`); a request with no answer queued waits until one is.
 */
export class AcpEditor {
  readonly updates: SessionNotification[] = [];
  readonly permissionRequests: RequestPermissionRequest[] = [];
  readonly answers: PermissionAnswer[] = [];
  stderr = '';
  readonly connection: ClientConnection;

  constructor(readonly child: ChildProcess) {
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (text: string) => (this.stderr += text));
    const app = client({ name: 'tandem-test-editor' })
      .onNotification('session/update', ({ params }) => {
        this.updates.push(params);
      })
      .onRequest('session/request_permission', async ({ params }) => {
        this.permissionRequests.push(params);
        await waitUntil(() => this.answers.length > 0, `an answer for permission request ${this.permissionRequests.length}`, 60_000);
        return this.answer(params, this.answers.shift()!);
      });
    this.connection = app.connect(ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>));
  }

  /** As an editor quits: closes the agent's stdin and waits for it to wind down (its shells end), killing it only if it does not. */
  async close(): Promise<void> {
    const { child } = this;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    child.stdin!.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), shellTimeout(15_000));
    await closed;
    clearTimeout(timer);
  }

  get agent() {
    return this.connection.agent;
  }

  /** The updates of one kind, in order. */
  updatesOf<K extends SessionUpdate['sessionUpdate']>(kind: K): Extract<SessionUpdate, { sessionUpdate: K }>[] {
    return this.updates.map((notification) => notification.update).filter((update): update is Extract<SessionUpdate, { sessionUpdate: K }> => update.sessionUpdate === kind);
  }

  /** Resolves with the first update that matches, once it has come. */
  async waitForUpdate<K extends SessionUpdate['sessionUpdate']>(kind: K, predicate: (update: Extract<SessionUpdate, { sessionUpdate: K }>) => boolean, what: string): Promise<Extract<SessionUpdate, { sessionUpdate: K }>> {
    await waitUntil(() => this.updatesOf(kind).some(predicate), `${what}; stderr: ${this.stderr}`, 60_000);
    return this.updatesOf(kind).find(predicate)!;
  }

  private answer(request: RequestPermissionRequest, answer: PermissionAnswer): RequestPermissionResponse {
    if (answer === 'cancelled') return { outcome: { outcome: 'cancelled' } };
    const option = request.options.find((candidate) => candidate.kind === answer);
    if (!option) throw new Error(`The agent did not offer ${answer}: ${JSON.stringify(request.options)}`);
    return { outcome: { outcome: 'selected', optionId: option.optionId } };
  }
}

/** Starts `tandem agent --acp` (built) with `env` and connects an editor to it. */
export function startAcpEditor(env: NodeJS.ProcessEnv, args: string[] = [], editors: AcpEditor[] = []): AcpEditor {
  const child = spawn(process.execPath, [TANDEM_BIN, 'agent', '--acp', ...args], { cwd: env.HOME, env, stdio: ['pipe', 'pipe', 'pipe'] });
  const editor = new AcpEditor(child);
  editors.push(editor);
  return editor;
}
