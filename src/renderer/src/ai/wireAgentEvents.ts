import type { EngineConnection } from '../transport/engineConnection';
import { loadAgentState } from './agentRequests';
import { receiveConversation, receiveDelta } from './conversationFeed';
import { openAiPanel } from './panelControl';

/** Agent events into the conversation; the whole state once per (re)connection. */
export function wireAgentEvents(connection: EngineConnection): void {
  connection.on('agent.conversation', receiveConversation);
  connection.on('agent.delta', receiveDelta);
  // A `# ` line taken from a prompt: show the panel, but the user keeps typing in the terminal.
  connection.on('agent.prompt-instruction', () => openAiPanel({ focusInput: false }));
  connection.onStatus((status) => {
    if (status === 'open') void loadAgentState();
  });
}
