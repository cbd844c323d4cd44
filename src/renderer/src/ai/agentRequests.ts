import type { Params } from '../../../shared/protocol';
import type { ModelList } from '../../../shared/agent';
import type { Block } from '../../../shared/blocks';
import { engine } from '../app/engine';
import { useAiPanelStore } from './aiPanelStore';
import { receiveConversation } from './conversationFeed';

/**
 * The panel's requests to the agent. Results that carry a whole view apply it at once; a
 * failure is shown in the panel (the engine's message says what to do), never thrown.
 */
async function attempt<T>(what: string, request: () => Promise<T>): Promise<T | undefined> {
  try {
    const result = await request();
    if (useAiPanelStore.getState().notice) useAiPanelStore.getState().setNotice(undefined);
    return result;
  } catch (error) {
    useAiPanelStore.getState().setNotice(`${what}: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

/** Fetched once per (re)connection; an engine without an agent simply leaves the panel empty. */
export async function loadAgentState(): Promise<void> {
  try {
    receiveConversation(await engine().request('agent.state', {}));
  } catch (error) {
    console.warn('[tandem] agent.state failed', error);
  }
}

export async function sendMessage(params: Params<'agent.send'>): Promise<boolean> {
  return (await attempt('Could not send the message', () => engine().request('agent.send', params))) !== undefined;
}

/** "Summarize output" on a block: the summary arrives in the panel as a conversation item. */
export async function summarizeBlock(block: Pick<Block, 'paneId' | 'id'>): Promise<boolean> {
  return (await attempt('Could not summarise the output', () => engine().request('agent.summarize', { paneId: block.paneId, blockId: block.id }))) !== undefined;
}

export async function runUserCommand(paneId: number, command: string): Promise<boolean> {
  return (await attempt('Could not run the command', () => engine().request('agent.run', { paneId, command }))) !== undefined;
}

export async function startAutoRun(paneId: number, task: string): Promise<boolean> {
  return (await attempt('Could not start the auto run', () => engine().request('agent.auto', { paneId, task }))) !== undefined;
}

export function stopAutoRun(): Promise<unknown> {
  return attempt('Could not stop the auto run', () => engine().request('agent.auto-stop', {}));
}

export async function cancelAgent(): Promise<Awaited<ReturnType<typeof requestCancel>> | undefined> {
  return attempt('Could not cancel', requestCancel);
}

function requestCancel() {
  return engine().request('agent.cancel', { everything: false });
}

export async function newConversation(): Promise<void> {
  const view = await attempt('Could not start a new conversation', () => engine().request('agent.new', {}));
  if (view) receiveConversation(view);
}

export function planAction(params: Params<'agent.plan'>): Promise<unknown> {
  return attempt('Could not update the plan', () => engine().request('agent.plan', params));
}

export function stepAction(params: Params<'agent.step'>): Promise<unknown> {
  return attempt('Could not update the step', () => engine().request('agent.step', params));
}

/** Allow or deny a child agent's step that asks, from the card nested under its spawn step. */
export function childApproval(params: Params<'agent.child-approval'>): Promise<unknown> {
  return attempt('Could not answer the child agent', () => engine().request('agent.child-approval', params));
}

export async function addNote(text: string): Promise<boolean> {
  return (await attempt('Could not add the note', () => engine().request('agent.note', { text }))) !== undefined;
}

/** The conversation follows a model or backend changed in the settings (which hold the default). */
export async function switchModel(params: Params<'agent.model'>): Promise<void> {
  const view = await attempt('Could not switch the model', () => engine().request('agent.model', params));
  if (view) receiveConversation(view);
}

export async function storeApiKey(params: Params<'agent.key'>) {
  return engine().request('agent.key', params);
}

/** "What was sent": the exact request body behind an answer, or undefined (the reason is shown). */
export async function fetchSentPayload(itemId: string): Promise<string | undefined> {
  return (await attempt('Could not show what was sent', () => engine().request('agent.sent', { itemId })))?.payload;
}

/** A screenshot step's image (a data: URL), or undefined (the reason is shown). */
export async function fetchScreenshot(id: string): Promise<string | undefined> {
  return (await attempt('Could not show the screenshot', () => engine().request('agent.image', { id })))?.src;
}

/** The models the picker offers for a backend (the endpoint's list or the catalog); undefined when the engine could not say. */
export async function fetchModelList(backend: ModelList['backend']): Promise<ModelList> {
  try {
    return await engine().request('agent.models', { backend });
  } catch (error) {
    // The picker still takes a typed model name; it must not keep saying it is asking.
    return { backend, models: [], source: 'catalog', note: `the engine could not list models: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** An error card's Retry: the failed request goes out again. */
export async function retryRequest(): Promise<void> {
  await attempt('Could not retry', () => engine().request('agent.retry', {}));
}

/** §14.8: queue the instruction no backend answered, check for a backend now, or discard the queue. */
export async function offlineAction(action: 'queue' | 'retry' | 'discard'): Promise<void> {
  await attempt(action === 'queue' ? 'Could not queue the instruction' : action === 'retry' ? 'Could not check for a backend' : 'Could not discard the queue', () =>
    engine().request('agent.offline', { action }),
  );
}

export async function revokeGrant(shape: string): Promise<void> {
  const view = await attempt('Could not withdraw the permission', () => engine().request('agent.revoke', { shape }));
  if (view) receiveConversation(view);
}
