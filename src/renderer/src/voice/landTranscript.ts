import { sendMessage } from '../ai/agentRequests';
import { useAiPanelStore } from '../ai/aiPanelStore';
import { openAiPanel } from '../ai/panelControl';
import { focusedPaneId } from '../layout/layoutStore';
import { useSettingsStore } from '../settings/settingsStore';
import { transcriptDraft } from './transcriptDraft';
import { useVoiceStore } from './voiceStore';

/**
 * Where a transcript goes. `send = "review"`: into the AI input for a glance (Enter sends, Esc
 * puts back what was there); spoken while a terminal pane had the keys, it is a `# ` line, an
 * instruction for that pane as at its prompt. `send = "immediately"`: sent at once, for the
 * active pane; if that fails it waits in the input instead, so nothing is lost.
 */
export async function landTranscript(text: string, towardsPane: boolean): Promise<void> {
  const spoken = text.trim();
  if (!spoken) {
    useVoiceStore.getState().setNotice({ kind: 'info', text: 'Nothing was heard in the recording.' });
    return;
  }
  if (useSettingsStore.getState().settings.voice.send === 'immediately') {
    openAiPanel({ focusInput: false });
    if (await sendMessage({ text: spoken, attachments: [], paneId: focusedPaneId() })) return;
  }
  const panel = useAiPanelStore.getState();
  const before = panel.draft;
  const after = transcriptDraft(before, spoken, towardsPane);
  panel.setDraft(after);
  useVoiceStore.getState().setReview({ before, after });
  openAiPanel({ focusInput: true });
}

/** Esc on a transcript still as it landed: the input goes back to what it held before. False when there is none. */
export function discardTranscript(): boolean {
  const { review, setReview } = useVoiceStore.getState();
  const panel = useAiPanelStore.getState();
  if (!review || panel.draft !== review.after) return false;
  panel.setDraft(review.before);
  setReview(undefined);
  return true;
}
