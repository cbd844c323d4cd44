import {
  FrameKind,
  RequestSchema,
  RequestSchemas,
  decodeAckCount,
  decodeFrame,
  encodeFrame,
  type Events,
  type Method,
  type Params,
  type Results,
} from '../../shared/protocol';
import { latencyMarks } from '../log/latencyMarks';
import { readSshConfigHosts } from '../ssh/sshConfigHosts';
import { VoiceClips } from '../voice/voiceClips';
import { VoiceError } from '../voice/voiceError';
import type { PaneListener } from '../panes/pane';
import { UserError, type Engine } from './engine';
import { watchersRequests } from '../watchers/watchersRequests';
import type { WatcherActions } from '../watchers/firing/watcherActions';
import { HistoryRequests } from './historyRequests';

/** What a transport must offer: a way to send text and binary messages to the renderer. */
export interface ClientSink {
  sendText(text: string): void;
  sendBinary(bytes: Uint8Array): void;
}

type Handler<M extends Method> = (params: Params<M>) => Results[M] | Promise<Results[M]>;

/** Largest text message accepted from a client (a session layout is the biggest). */
const MAX_REQUEST_BYTES = 1024 * 1024;
/** Deepest JSON accepted: a layout of splits within splits never needs more. */
const MAX_PARAMS_DEPTH = 40;

/** Depth of a parsed JSON value, measured without recursion so hostile input cannot overflow the stack. */
export function nestingDepth(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_PARAMS_DEPTH) return deepest;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** A voice problem (no endpoint, no key, the server's answer) is the user's to read, not an engine failure. */
function asUserError<T>(work: Promise<T>): Promise<T> {
  return work.catch((error: unknown) => {
    throw error instanceof VoiceError ? new UserError(error.message) : error;
  });
}

/**
 * One renderer's conversation with the engine, independent of the transport: parses and
 * validates every message (zod), dispatches requests, forwards keystrokes and acks, and
 * sends pane output and events back. Nothing a client sends can crash the engine.
 */
export class ClientConnection implements PaneListener {
  private readonly handlers: { [M in Method]: Handler<M> };
  private closed = false;
  /** Output bytes sent per pane, counted only for the latency marks. */
  private readonly sentBytes = new Map<number, number>();
  /** Push-to-talk recordings waiting for their `voice.transcribe`. */
  private readonly voiceClips = new VoiceClips();

  constructor(
    private readonly engine: Engine,
    private readonly sink: ClientSink,
  ) {
    const history = new HistoryRequests({
      history: engine.history,
      pane: (paneId) => {
        try {
          return engine.pane(paneId);
        } catch {
          return undefined;
        }
      },
    });
    this.handlers = {
      hello: () => this.engine.hello(),
      'pane.create': (params) => this.engine.createPane(params, this),
      'pane.attach': ({ paneId }) => this.engine.reattachPane(paneId, this),
      'pane.resize': ({ paneId, cols, rows }) => this.engine.pane(paneId).resize(cols, rows),
      'pane.close': ({ paneId }) => {
        void this.engine.closePane(paneId);
        return {};
      },
      'pane.running': ({ paneIds }) => ({ panes: this.engine.runningIn(paneIds) }),
      'pane.blocks': ({ paneId }) => this.engine.blocks(paneId),
      'pane.private': ({ paneId, on }) => this.engine.setPrivate(paneId, on),
      'block.output': ({ blockId }) => this.engine.blockOutput(blockId),
      'pane.focus': ({ paneId }) => {
        this.engine.focusPane(paneId);
        return {};
      },
      'companion.activity': ({ paneId }) => {
        this.engine.panelActivity(paneId);
        return {};
      },
      'settings.update': (patch) => ({ settings: this.engine.updateSettings(patch) }),
      'session.save': async (layout) => {
        await this.engine.saveSession(layout);
        return {};
      },
      ...watchersRequests(() => this.engine.watchers),
      'agent.state': () => this.engine.agent.view(),
      'agent.send': async (request) => {
        if (request.paneId !== undefined) this.engine.panelActivity(request.paneId);
        await this.engine.agent.send(request);
        return {};
      },
      'agent.cancel': ({ everything }) => this.engine.agent.cancel(everything),
      // Answered once the panel's update went out: after the echo of a step the decision typed,
      // so the answer does not compete with the keys (docs/architecture.md, "Where the time goes").
      'agent.plan': async ({ planId, action }) => {
        await this.engine.agent.planAction(planId, action);
        return {};
      },
      'agent.step': async ({ planId, stepId, action, command, reason }) => {
        await this.engine.agent.stepAction(planId, stepId, action, command, reason);
        return {};
      },
      'agent.child-approval': ({ planId, stepId, requestId, decision, note }) => {
        this.engine.agent.childApproval(planId, stepId, requestId, decision, note);
        return {};
      },
      'agent.note': ({ text }) => {
        this.engine.agent.note(text);
        return {};
      },
      'agent.auto': async ({ paneId, task }) => {
        this.engine.pane(paneId);
        // Refusals (a run already working, the agent busy) are the user's to read, not engine failures.
        await this.engine.agent.startAuto(paneId, task).catch((error: unknown) => {
          throw new UserError(error instanceof Error ? error.message : String(error));
        });
        return {};
      },
      'agent.auto-stop': () => {
        this.engine.agent.stopAuto('stop-button');
        return {};
      },
      'agent.run': ({ paneId, command }) => {
        this.engine.pane(paneId);
        // Answer at once; the command's block arrives as conversation events.
        this.engine.agent.runUserCommand(paneId, command).catch((error: unknown) => this.engine.agent.reportError(error));
        return {};
      },
      'agent.new': () => this.engine.agent.newConversation(),
      'agent.model': (change) => this.engine.agent.setModel(change),
      'agent.key': ({ backend, key }) => this.engine.agent.setKey(backend, key),
      'agent.sent': ({ itemId }) => this.engine.agent.sentPayload(itemId),
      'agent.image': ({ id }) => this.engine.agent.image(id),
      'agent.models': ({ backend }) => this.engine.agent.listModels(backend),
      'agent.retry': () => {
        this.engine.agent.retry();
        return {};
      },
      'agent.offline': ({ action }) => {
        this.engine.agent.offlineAction(action);
        return {};
      },
      'agent.revoke': ({ shape }) => this.engine.agent.revokeGrant(shape),
      'agent.summarize': ({ paneId, blockId }) => {
        this.engine.pane(paneId);
        this.engine.panelActivity(paneId);
        // Answer at once; the summary arrives as conversation events.
        this.engine.agent.summarizeBlock(paneId, blockId).catch((error: unknown) => this.engine.agent.reportError(error));
        return {};
      },
      'history.search': (query) => history.search(query),
      'history.neighbours': (request) => history.neighbours(request),
      'history.forget': (request) => history.forget(request),
      'history.scope': (request) => history.scope(request),
      'ssh.hosts': () => readSshConfigHosts(this.engine.home),
      'voice.transcribe': ({ clipId }) => {
        const wav = this.voiceClips.take(clipId);
        if (!wav) throw new UserError('The recording did not reach the engine; try again.');
        return asUserError(this.engine.voice.transcribe(wav));
      },
      'voice.speak': ({ text }) => asUserError(this.engine.voice.speak(text)),
      'watchers.cards': () => ({ cards: this.engine.watchers?.actions.cards() ?? [] }),
      'watchers.run': ({ firingId }) => this.watcherAction((actions) => actions.run(firingId)),
      'watchers.dismiss': ({ firingId }) => this.watcherAction((actions) => actions.dismiss(firingId)),
      'watchers.answer': ({ firingId, requestId, ...answer }) => this.watcherAction((actions) => actions.answer(firingId, requestId, answer)),
    };
    engine.attachClient(this);
  }

  /** A notify card's Run / Dismiss, or a decision on a watcher run's step: a stale firing is the user's error. */
  private watcherAction(act: (actions: WatcherActions) => void): Record<string, never> {
    const actions = this.engine.watchers?.actions;
    if (!actions) throw new UserError('This Tandem runs no watchers.');
    try {
      act(actions);
    } catch (error) {
      throw new UserError((error as Error).message);
    }
    return {};
  }

  output(paneId: number, bytes: Uint8Array): void {
    if (this.closed) return;
    this.sink.sendBinary(encodeFrame(FrameKind.Output, paneId, bytes));
    if (latencyMarks.on) {
      const sent = (this.sentBytes.get(paneId) ?? 0) + bytes.length;
      this.sentBytes.set(paneId, sent);
      latencyMarks.mark('output-sent', { pane: paneId, offset: sent });
    }
  }

  event<E extends keyof Events>(event: E, payload: Events[E]): void {
    if (!this.closed) this.sink.sendText(JSON.stringify({ event, payload }));
  }

  handleBinary(data: Uint8Array): void {
    const frame = decodeFrame(data);
    if (!frame) return;
    if (frame.kind === FrameKind.VoiceClip) {
      this.voiceClips.put(frame.paneId, frame.payload);
      return;
    }
    if (frame.kind === FrameKind.Input) {
      if (latencyMarks.on) latencyMarks.mark('input', { pane: frame.paneId });
      this.engine.input(frame.paneId, frame.payload);
      return;
    }
    let pane;
    try {
      pane = this.engine.pane(frame.paneId);
    } catch {
      return; // An ack for a pane closed a moment ago.
    }
    if (frame.kind === FrameKind.Ack) pane.acknowledge(decodeAckCount(frame.payload));
  }

  async handleText(text: string): Promise<void> {
    const receivedAt = latencyMarks.now();
    if (text.length > MAX_REQUEST_BYTES) return;
    let request;
    try {
      request = RequestSchema.parse(JSON.parse(text));
    } catch {
      return; // Not a request: nothing to answer.
    }
    const { id, method } = request;
    if (receivedAt !== undefined && method === 'agent.step') latencyMarks.mark('step-decision', { at: receivedAt });
    if (!Object.hasOwn(RequestSchemas, method)) {
      this.reply(id, undefined, { message: `Unknown method ${method}.`, code: 'unknown-method' });
      return;
    }
    if (nestingDepth(request.params) > MAX_PARAMS_DEPTH) {
      this.reply(id, undefined, { message: `Invalid ${method} request: nested too deeply.`, code: 'invalid' });
      return;
    }
    try {
      const params = RequestSchemas[method as Method].safeParse(request.params ?? {});
      if (!params.success) {
        this.reply(id, undefined, { message: `Invalid ${method} request: ${params.error.issues[0]?.message ?? ''}`, code: 'invalid' });
        return;
      }
      const handler = this.handlers[method as Method] as Handler<Method>;
      this.reply(id, await handler(params.data as Params<Method>));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const internal = !(error instanceof UserError);
      // The client gets the message; the stack stays in the engine log.
      if (internal) this.engine.log.error('client', `${method} failed: ${message}`, error);
      this.reply(id, undefined, { message, code: internal ? 'internal' : 'user' });
    }
  }

  disconnect(): void {
    if (this.closed) return;
    this.closed = true;
    this.voiceClips.clear();
    this.engine.detachClient(this);
  }

  private reply(id: number, result: unknown, error?: { message: string; code?: string }): void {
    if (this.closed) return;
    this.sink.sendText(JSON.stringify(error ? { id, error } : { id, result }));
  }
}
