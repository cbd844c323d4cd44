import { useEffect, useLayoutEffect, useRef, type KeyboardEvent } from 'react';
import { agree, plural } from '../../../shared/countWords';
import { cancelAgent } from './agentRequests';
import { useAiPanelStore } from './aiPanelStore';
import { isAgentBusy, useConversationStore } from './conversationStore';
import { noteInputLeft, offerCommandsRunSince } from './shareOfferFlow';
import { submitPanelInput } from './submitPanelInput';
import { discardTranscript } from '../voice/landTranscript';
import { VoiceBar } from '../voice/VoiceBar';
import { VoiceButton } from '../voice/VoiceButton';

const MAX_INPUT_HEIGHT_PX = 200;

/** Focus requests already carried out; kept outside the component so reopening the panel does not repeat one. */
let handledFocusRequest = 0;

/**
 * The message box. Enter sends, Shift+Enter starts a new line. It stays enabled while the
 * agent works: what is sent then waits in the engine's queue.
 */
export function AiInput() {
  const draft = useAiPanelStore((state) => state.draft);
  const setDraft = useAiPanelStore((state) => state.setDraft);
  const focusRequest = useAiPanelStore((state) => state.inputFocusRequest);
  const busy = useConversationStore((state) => isAgentBusy(state.conversation));
  const queued = useConversationStore((state) => state.conversation?.queued ?? 0);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const hasFocus = useRef(false);

  // Closing the panel removes the input without a blur event: it was left all the same.
  useEffect(
    () => () => {
      if (hasFocus.current) noteInputLeft();
    },
    [],
  );

  useEffect(() => {
    if (focusRequest <= handledFocusRequest) return;
    handledFocusRequest = focusRequest;
    const input = inputRef.current;
    if (!input) return;
    input.focus();
    input.setSelectionRange(input.value.length, input.value.length);
  }, [focusRequest]);

  useLayoutEffect(() => {
    const input = inputRef.current;
    if (!input) return;
    input.style.height = 'auto';
    input.style.height = `${Math.min(MAX_INPUT_HEIGHT_PX, input.scrollHeight)}px`;
  }, [draft]);

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.nativeEvent.isComposing) return;
    // Esc on a spoken transcript discards it (and cancels nothing of the agent's).
    if (event.key === 'Escape' && discardTranscript()) {
      event.preventDefault();
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      void submitPanelInput();
    }
  };

  return (
    <div className="ai-input">
      <VoiceBar />
      <textarea
        ref={inputRef}
        className="ai-input__text"
        data-testid="ai-input"
        aria-label="Message the AI"
        placeholder="Ask the AI — or ! cmd to run a command"
        rows={1}
        value={draft}
        spellCheck={false}
        maxLength={100_000}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={onKeyDown}
        onFocus={() => {
          hasFocus.current = true;
          offerCommandsRunSince();
        }}
        onBlur={() => {
          hasFocus.current = false;
          noteInputLeft();
        }}
      />
      <div className="ai-input__bar">
        {queued > 0 && (
          <span className="ai-input__queued" data-testid="ai-queued">
            {plural(queued, 'message')} {agree(queued, 'waits', 'wait')} for the agent
          </span>
        )}
        <span className="ai-input__spacer" />
        <VoiceButton />
        {busy && (
          <button type="button" className="ai-input__stop" data-testid="ai-stop" title="Stop (Esc)" onClick={() => void cancelAgent()}>
            Stop
          </button>
        )}
        <button
          type="button"
          className="button--primary"
          data-testid="ai-send"
          disabled={draft.trim() === ''}
          onClick={() => void submitPanelInput()}
        >
          Send
        </button>
      </div>
    </div>
  );
}
