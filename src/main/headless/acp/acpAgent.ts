import { existsSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { agent, ndJsonStream, PROTOCOL_VERSION, RequestError, type AgentContext } from '@agentclientprotocol/sdk';
import { usageError, type AgentIo } from '../agentIo';
import type { AgentOptions } from '../agentOptions';
import { AGENT_EXIT } from '../agentStream';
import { headlessEngineOptions, type HeadlessPlanRules } from '../headlessEngineOptions';
import { AcpSession } from './acpSession';

/**
 * Every step the gate would ask about becomes a `session/request_permission`; RED steps are
 * refused with their reasons (nobody can edit them in an editor's permission prompt), and a
 * step that fails or is refused ends its plan so the model hears at once.
 */
const ACP_PLAN_RULES: HeadlessPlanRules = { name: 'tandem agent --acp', refuseAsking: false, greenRuns: false };

/** Flags that do not apply when an editor drives the agent. */
function acpOptionProblem(options: AgentOptions): string | undefined {
  if (options.approve !== undefined) return '--acp asks the editor for every approval: no --approve with it.';
  if (options.inputFormat !== 'text') return '--acp speaks JSON-RPC on stdin: no --input-format with it.';
  if (options.cwd !== undefined) return "--acp works in the directory the editor gives each session: no --cwd with it.";
  if (options.timeoutSeconds !== undefined || options.budgetUsd !== undefined) return '--acp prompts are stopped from the editor (session/cancel): no --timeout or --budget-usd with it.';
  return undefined;
}

/**
 * `tandem agent --acp`: an Agent Client Protocol agent on stdio (JSON-RPC 2.0, one message a
 * line), built on the official SDK. Each `session/new` is a HeadlessSession of its own in the
 * editor's cwd; runs until the editor closes stdin or a signal ends it (docs/agent-protocol.md).
 */
export async function runAcpAgent(options: AgentOptions, io: AgentIo): Promise<number> {
  const problem = acpOptionProblem(options);
  if (problem) return usageError(io, problem);
  const sessions = new Map<string, AcpSession>();
  const find = (sessionId: string) => {
    const session = sessions.get(sessionId);
    if (!session) throw RequestError.sessionNotFound(sessionId);
    return session;
  };
  const newSession = async (client: AgentContext, cwd: string) => {
    if (!isAbsolute(cwd) || !existsSync(cwd) || !statSync(cwd).isDirectory()) throw RequestError.invalidParams(undefined, `cwd ${cwd}: there is no such directory (an absolute path is needed).`);
    const session = new AcpSession(client, (view) => headlessEngineOptions(options, io, () => ACP_PLAN_RULES, view), options, cwd);
    try {
      await session.start();
    } catch (error) {
      await session.close().catch(() => undefined);
      throw error;
    }
    sessions.set(session.id, session);
    return session;
  };

  const app = agent({ name: 'tandem' })
    .onRequest('initialize', () => ({
      protocolVersion: PROTOCOL_VERSION,
      agentCapabilities: { loadSession: false, promptCapabilities: { image: false, audio: false, embeddedContext: true } },
      agentInfo: { name: 'tandem', title: 'Tandem', version: io.version },
      authMethods: [],
    }))
    .onRequest('session/new', async ({ params, client }) => ({ sessionId: (await newSession(client, params.cwd)).id }))
    .onRequest('session/prompt', ({ params }) => find(params.sessionId).prompt(params.prompt))
    .onNotification('session/cancel', ({ params }) => sessions.get(params.sessionId)?.cancel());

  const connection = app.connect(ndJsonStream(Writable.toWeb(io.stdout) as WritableStream<Uint8Array>, Readable.toWeb(io.stdin) as ReadableStream<Uint8Array>));
  let signalled: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    signalled = signal;
    connection.close();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    await connection.closed.catch(() => undefined);
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    await Promise.all([...sessions.values()].map((session) => session.close().catch(() => undefined)));
  }
  return signalled ? AGENT_EXIT.interrupted : AGENT_EXIT.ok;
}
