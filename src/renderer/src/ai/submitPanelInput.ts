import { focusedPaneId } from '../layout/layoutStore';
import { focusActivePane } from '../terminal/paneLifecycle';
import { runUserCommand, sendMessage, startAutoRun } from './agentRequests';
import { useAiPanelStore } from './aiPanelStore';
import { parsePanelInput } from './panelInput';
import { dropShareOffer } from './shareOfferFlow';

/**
 * Enter in the AI input. A message goes with the attachments and the active pane; `! cmd`
 * runs in the active pane; `!auto <task>` starts an auto run there; a lone `!` returns to the terminal. What failed to go out is
 * put back, unless something new was typed meanwhile.
 */
export async function submitPanelInput(): Promise<void> {
  const panel = useAiPanelStore.getState();
  const draft = panel.draft;
  const input = parsePanelInput(draft);
  const paneId = focusedPaneId();

  switch (input.kind) {
    case 'empty':
      return;
    case 'focus-terminal':
      panel.setDraft('');
      focusActivePane();
      return;
    case 'run': {
      if (paneId === undefined) {
        panel.setNotice('No terminal pane to run the command in.');
        return;
      }
      panel.setDraft('');
      if (!(await runUserCommand(paneId, input.command))) restoreDraft(draft);
      return;
    }
    case 'auto': {
      if (!input.task) {
        panel.setNotice('Type the task after !auto, for example: !auto fix the failing test');
        return;
      }
      if (paneId === undefined) {
        panel.setNotice('No terminal pane for the auto run to work in.');
        return;
      }
      panel.setDraft('');
      if (!(await startAutoRun(paneId, input.task))) restoreDraft(draft);
      return;
    }
    case 'message': {
      const attachments = panel.attachments;
      panel.setDraft('');
      panel.clearAttachments();
      dropShareOffer();
      const sent = await sendMessage({ text: input.text, attachments, paneId });
      if (!sent) {
        restoreDraft(draft);
        if (useAiPanelStore.getState().attachments.length === 0) useAiPanelStore.getState().attach(attachments);
      }
      return;
    }
  }
}

function restoreDraft(draft: string): void {
  const panel = useAiPanelStore.getState();
  if (panel.draft === '') panel.setDraft(draft);
}
