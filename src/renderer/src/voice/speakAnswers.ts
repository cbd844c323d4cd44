import type { ConversationView } from '../../../shared/agent';
import { useConversationStore } from '../ai/conversationStore';
import { engine } from '../app/engine';
import { useSettingsStore } from '../settings/settingsStore';
import { spokenText } from './spokenText';
import { useVoiceStore } from './voiceStore';

/** What plays now; stopping it ends the speech and nothing else. */
let playing: { stop(): void } | undefined;
let lastSpokenId: string | undefined;

/**
 * `[voice] speak_answers`: each final answer of the agent (the text it ends on, not its steps)
 * is read aloud — by `[voice] speech_endpoint` when one is set, else by the system's speech
 * synthesis. Esc while it speaks stops the speech only; a new recording stops it too.
 */
export function followSpokenAnswers(): () => void {
  let previous = useConversationStore.getState().conversation?.status;
  return useConversationStore.subscribe((state) => {
    const status = state.conversation?.status;
    const finished = status === 'idle' && previous !== undefined && previous !== 'idle';
    previous = status;
    if (!finished || !useSettingsStore.getState().settings.voice.speak_answers) return;
    const answer = finalAnswer(state.conversation);
    if (!answer || answer.id === lastSpokenId) return;
    lastSpokenId = answer.id;
    void speak(spokenText(answer.text));
  });
}

function finalAnswer(conversation: ConversationView | undefined): { id: string; text: string } | undefined {
  const last = conversation?.items.at(-1);
  return last?.role === 'assistant' && !last.interrupted && last.text.trim() ? { id: last.id, text: last.text } : undefined;
}

async function speak(text: string): Promise<void> {
  if (!text) return;
  stopSpeaking();
  const voice = useVoiceStore.getState();
  if (voice.phase !== 'idle') return;
  voice.setPhase('speaking');
  window.addEventListener('keydown', stopOnEscape, true);
  try {
    playing = useSettingsStore.getState().settings.voice.speech_endpoint ? await playFromEndpoint(text) : speakWithSystemVoice(text);
  } catch (error) {
    finished();
    voice.setNotice({ kind: 'error', text: `The answer could not be read aloud: ${error instanceof Error ? error.message : String(error)}` });
  }
}

async function playFromEndpoint(text: string): Promise<{ stop(): void }> {
  const { audio } = await engine().request('voice.speak', { text });
  if (useVoiceStore.getState().phase !== 'speaking') return { stop: () => undefined };
  const bytes = Uint8Array.from(atob(audio), (char) => char.charCodeAt(0));
  // Decoded and played in the page: the Content-Security-Policy allows no blob: or data: media.
  const context = new AudioContext();
  const buffer = await context.decodeAudioData(bytes.buffer);
  const source = context.createBufferSource();
  source.buffer = buffer;
  source.connect(context.destination);
  source.onended = () => {
    void context.close();
    if (playing === handle) finished();
  };
  const handle = {
    stop: () => {
      source.onended = null;
      source.stop();
      void context.close();
    },
  };
  source.start();
  return handle;
}

function speakWithSystemVoice(text: string): { stop(): void } {
  if (typeof speechSynthesis === 'undefined') throw new Error('this system has no speech synthesis; set [voice] speech_endpoint');
  const utterance = new SpeechSynthesisUtterance(text);
  const handle = { stop: () => speechSynthesis.cancel() };
  utterance.onend = utterance.onerror = () => {
    if (playing === handle) finished();
  };
  speechSynthesis.speak(utterance);
  return handle;
}

/** Stops an answer being read aloud (Esc, a new recording); nothing when none is. */
export function stopSpeaking(): void {
  const current = playing;
  playing = undefined;
  current?.stop();
  if (useVoiceStore.getState().phase === 'speaking') finished();
}

function finished(): void {
  playing = undefined;
  window.removeEventListener('keydown', stopOnEscape, true);
  if (useVoiceStore.getState().phase === 'speaking') useVoiceStore.getState().setPhase('idle');
}

function stopOnEscape(event: KeyboardEvent): void {
  if (event.key !== 'Escape') return;
  event.preventDefault();
  event.stopPropagation();
  stopSpeaking();
}
