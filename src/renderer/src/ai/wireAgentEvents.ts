import type { EngineConnection } from '../transport/engineConnection';
import { loadAgentState } from './agentRequests';
import { receiveConversation, receiveDelta } from './conversationFeed';
import { openAiPanel } from './panelControl';
import { useWatcherCards } from './watcherCardsStore';
import { loadWatcherCards } from './watcherRequests';
import { notifyWatcherFired, notifyWatcherWaits } from '../watchers/webNotifications';

/** Agent events into the conversation; the whole state once per (re)connection. */
export function wireAgentEvents(connection: EngineConnection): void {
  connection.on('agent.conversation', receiveConversation);
  connection.on('agent.delta', receiveDelta);
  // A `# ` line taken from a prompt: show the panel, but the user keeps typing in the terminal.
  connection.on('agent.prompt-instruction', () => openAiPanel({ focusInput: false }));
  // A watcher fired: its card (notify) or its run shows in the panel.
  connection.on('watcher.fired', (event) => {
    useWatcherCards.getState().fired(event);
    notifyWatcherFired(event);
  });
  connection.on('watcher.run', (event) => {
    useWatcherCards.getState().runChanged(event);
    notifyWatcherWaits(event);
  });
  connection.on('watcher.waits-for-slot', (event) => useWatcherCards.getState().waitsForSlot(event));
  connection.onStatus((status) => {
    if (status !== 'open') return;
    void loadAgentState();
    void loadWatcherCards();
  });
}
