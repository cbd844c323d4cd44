import { useBannerStore } from '../app/bannerStore';
import { engine } from '../app/engine';
import { useUiStore } from '../app/uiStore';
import { newConversation } from '../ai/agentRequests';
import { draftAutoTask, focusAiInput, summarizeInPanel, toggleAiPanel } from '../ai/panelControl';
import { canRerunBlock, copyBlockCommand, copyBlockOutput, rerunBlock } from '../blocks/blockActions';
import { jumpToBlock, targetBlockId } from '../blocks/blockNavigation';
import { useBlocksStore } from '../blocks/blocksStore';
import { activeTab, focusedPaneId, useLayoutStore } from '../layout/layoutStore';
import { neighborPane, type FocusDirection } from '../layout/paneGeometry';
import { readClipboard, writeClipboard } from '../platform/clipboard';
import { updateSettings } from '../settings/updateSettings';
import { useSettingsStore } from '../settings/settingsStore';
import { closePaneAsking, closeTabAsking } from '../closing/closeAsking';
import { openNewTab, restartPane, splitFocusedPane } from '../terminal/paneLifecycle';
import { showPaneMenuAtCorner } from '../terminal/paneMenuStore';
import { paneSessions } from '../terminal/paneSessions';
import { editingText, fieldSelection } from './textFields';
import { togglePrivateMode } from '../history/privateMode';
import { toggleHistorySearch } from '../history/historySearch';
import { toggleWatchersList } from '../watchers/watchersList';
import { useSshPicker } from '../ssh/sshPickerStore';
import { toggleRecording } from '../voice/pushToTalk';
import { pushToTalkPressed } from '../voice/pushToTalkKey';

/**
 * Everything the user can do, in one list: the command palette shows it, the keyboard
 * shortcuts point into it. `run` returning false means "not applicable here": the key
 * then goes on to the terminal or the browser as if unbound.
 */
export interface AppAction {
  id: string;
  title: string;
  /** Hidden from the palette (e.g. the palette itself). */
  hidden?: boolean;
  enabled?: () => boolean;
  run: () => boolean | void;
}

function focusedSession() {
  const paneId = focusedPaneId();
  return paneId !== undefined ? paneSessions.get(paneId) : undefined;
}

function terminalHasFocus(): boolean {
  return document.activeElement?.classList.contains('xterm-helper-textarea') === true;
}

function focusNeighbor(direction: FocusDirection): boolean {
  const tab = activeTab();
  if (!tab) return false;
  const target = neighborPane(tab.root, tab.focusedPaneId, direction);
  if (target === undefined) return false;
  useLayoutStore.getState().focusPane(target);
  paneSessions.get(target)?.focus();
  return true;
}

function targetBlock() {
  const paneId = focusedPaneId();
  if (paneId === undefined) return undefined;
  const blockId = targetBlockId(paneId);
  return blockId ? useBlocksStore.getState().byId[blockId] : undefined;
}

function reportError(message: string) {
  return (error: unknown) =>
    useBannerStore.getState().show({
      key: 'action-error',
      level: 'error',
      message: `${message}: ${error instanceof Error ? error.message : String(error)}`,
      dismissible: true,
    });
}

export const appActions: AppAction[] = [
  { id: 'tab.new', title: 'New Tab', run: () => void openNewTab() },
  {
    id: 'tab.close',
    title: 'Close Tab',
    enabled: () => activeTab() !== undefined,
    run: () => {
      const tab = activeTab();
      if (tab) void closeTabAsking(tab.id);
    },
  },
  { id: 'tab.next', title: 'Next Tab', run: () => useLayoutStore.getState().activateRelative(1) },
  { id: 'tab.previous', title: 'Previous Tab', run: () => useLayoutStore.getState().activateRelative(-1) },
  { id: 'pane.splitRight', title: 'Split Pane Right', run: () => void splitFocusedPane('row') },
  { id: 'pane.splitDown', title: 'Split Pane Down', run: () => void splitFocusedPane('column') },
  {
    id: 'pane.close',
    title: 'Close Pane',
    enabled: () => focusedPaneId() !== undefined,
    run: () => {
      const paneId = focusedPaneId();
      if (paneId === undefined) return false;
      void closePaneAsking(paneId);
    },
  },
  {
    id: 'pane.restart',
    title: 'Restart Shell in Pane',
    enabled: () => focusedSession()?.hasExited === true,
    run: () => {
      const paneId = focusedPaneId();
      if (paneId === undefined) return false;
      void restartPane(paneId);
    },
  },
  {
    id: 'pane.menu',
    title: 'Pane Menu',
    hidden: true,
    run: () => {
      // A text field's Menu key or Shift+F10 opens its own menu.
      const paneId = focusedPaneId();
      if (paneId === undefined || !terminalHasFocus()) return false;
      return showPaneMenuAtCorner(paneId);
    },
  },
  { id: 'pane.focusLeft', title: 'Focus Pane Left', run: () => focusNeighbor('left') },
  { id: 'pane.focusRight', title: 'Focus Pane Right', run: () => focusNeighbor('right') },
  { id: 'pane.focusUp', title: 'Focus Pane Above', run: () => focusNeighbor('up') },
  { id: 'pane.focusDown', title: 'Focus Pane Below', run: () => focusNeighbor('down') },
  {
    id: 'terminal.copy',
    title: 'Copy Selection',
    run: () => {
      // In a text field Ctrl+Shift+C copies what is selected there, as in a terminal. With
      // nothing selected the chord is still Tandem's: it never falls through to the browser
      // (whose Ctrl+Shift+C is its element picker).
      if (editingText()) {
        const selected = fieldSelection();
        if (selected) void writeClipboard(selected);
        return;
      }
      const session = focusedSession();
      if (!session) return false;
      session.copySelection();
    },
  },
  {
    id: 'terminal.paste',
    title: 'Paste',
    run: () => {
      // In a terminal or a text field the browser's own paste event does the job
      // (the pane routes it through term.paste); elsewhere read the clipboard.
      if (editingText() || terminalHasFocus()) return false;
      const session = focusedSession();
      if (!session) return false;
      void readClipboard().then((text) => {
        if (text) session.paste(text);
        session.focus();
      });
    },
  },
  {
    id: 'terminal.selectAll',
    title: 'Select All',
    run: () => {
      if (editingText()) return false;
      focusedSession()?.terminal.selectAll();
    },
  },
  { id: 'terminal.clear', title: 'Clear Scrollback', run: () => focusedSession()?.terminal.clear() },
  {
    id: 'terminal.find',
    title: 'Find in Scrollback',
    run: () => {
      const paneId = focusedPaneId();
      if (paneId === undefined) return false;
      useUiStore.getState().openFind(paneId);
    },
  },
  { id: 'view.zoomIn', title: 'Zoom In', run: () => useSettingsStore.getState().zoom(1) },
  { id: 'view.zoomOut', title: 'Zoom Out', run: () => useSettingsStore.getState().zoom(-1) },
  { id: 'view.zoomReset', title: 'Reset Zoom', run: () => useSettingsStore.getState().resetZoom() },
  {
    id: 'theme.dark',
    title: 'Theme: Dark',
    run: () => void updateSettings({ terminal: { theme: 'dark' } }).catch(reportError('Could not change the theme')),
  },
  {
    id: 'theme.light',
    title: 'Theme: Light',
    run: () => void updateSettings({ terminal: { theme: 'light' } }).catch(reportError('Could not change the theme')),
  },
  {
    id: 'theme.system',
    title: 'Theme: Follow System',
    run: () => void updateSettings({ terminal: { theme: 'system' } }).catch(reportError('Could not change the theme')),
  },
  { id: 'settings.open', title: 'Open Settings', run: () => useUiStore.getState().setSettingsOpen(true) },
  {
    id: 'palette.show',
    title: 'Show Command Palette',
    hidden: true,
    run: () => useUiStore.getState().setPaletteOpen(!useUiStore.getState().paletteOpen),
  },
  {
    id: 'block.previous',
    title: 'Jump to Previous Block',
    run: () => {
      const paneId = focusedPaneId();
      return paneId !== undefined && jumpToBlock(paneId, 'previous');
    },
  },
  {
    id: 'block.next',
    title: 'Jump to Next Block',
    run: () => {
      const paneId = focusedPaneId();
      return paneId !== undefined && jumpToBlock(paneId, 'next');
    },
  },
  {
    id: 'block.menu',
    title: 'Block Actions…',
    enabled: () => targetBlock() !== undefined,
    run: () => {
      const block = targetBlock();
      if (!block) return false;
      if (!useBlocksStore.getState().selectedByPane[block.paneId]) jumpToBlock(block.paneId, 'previous');
      useUiStore.getState().requestBlockMenu(block.id);
    },
  },
  {
    id: 'block.copyCommand',
    title: 'Copy Last Command',
    enabled: () => targetBlock() !== undefined,
    run: () => {
      const block = targetBlock();
      if (!block) return false;
      void copyBlockCommand(block);
    },
  },
  {
    id: 'block.copyOutput',
    title: 'Copy Last Command Output',
    enabled: () => targetBlock() !== undefined,
    run: () => {
      const block = targetBlock();
      if (!block) return false;
      copyBlockOutput(block).catch(reportError('Could not copy the output'));
    },
  },
  {
    id: 'block.rerun',
    title: 'Rerun Last Command',
    enabled: () => {
      const block = targetBlock();
      return block !== undefined && canRerunBlock(block);
    },
    run: () => {
      const block = targetBlock();
      return block !== undefined && rerunBlock(block);
    },
  },
  {
    id: 'block.summarize',
    title: 'Summarize Last Command Output',
    enabled: () => targetBlock() !== undefined,
    run: () => {
      const block = targetBlock();
      if (!block) return false;
      summarizeInPanel(block);
    },
  },
  { id: 'history.search', title: 'Search History', run: () => toggleHistorySearch() },
  { id: 'watchers.open', title: 'Watchers: list, switch on or off, last fired, next run', run: () => toggleWatchersList() },
  { id: 'ssh.connect', title: 'SSH to Host…', run: () => useSshPicker.getState().setOpen(true) },
  {
    id: 'pane.privateMode',
    title: 'Private Mode: on or off for this pane (nothing of it is recorded in the history)',
    enabled: () => focusedPaneId() !== undefined,
    run: () => {
      const paneId = focusedPaneId();
      if (paneId === undefined) return false;
      void togglePrivateMode(paneId);
    },
  },
  { id: 'ai.toggle', title: 'Toggle AI Panel', run: () => toggleAiPanel() },
  // The key: held or pressed, as `[voice] push_to_talk_mode` says; the palette's entry toggles.
  { id: 'voice.pushToTalk', title: 'Push to Talk', hidden: true, run: () => pushToTalkPressed() },
  { id: 'voice.record', title: 'Voice: Start or Stop Recording', run: () => toggleRecording() },
  { id: 'ai.focusInput', title: 'Focus AI Input', run: () => focusAiInput() },
  {
    id: 'ai.auto',
    title: 'Auto… (let the AI work on a task in this pane)',
    run: () => draftAutoTask(),
  },
  {
    id: 'ai.newConversation',
    title: 'New AI Conversation',
    run: () => {
      focusAiInput();
      void newConversation();
    },
  },
  {
    id: 'engine.reconnect',
    title: 'Reconnect to Engine',
    run: () => engine().reconnectNow(),
  },
];

const actionsById = new Map(appActions.map((action) => [action.id, action]));

export function findAction(actionId: string): AppAction | undefined {
  return actionsById.get(actionId);
}
