import { openAiPanel } from '../ai/panelControl';
import { engine } from '../app/engine';
import { useSettingsStore } from '../settings/settingsStore';
import { landTranscript } from './landTranscript';
import { MicRecorder } from './micRecorder';
import { stopSpeaking } from './speakAnswers';
import { microphoneProblem, VOICE_SETUP_TEXT } from './voiceWords';
import { useVoiceStore } from './voiceStore';

/** Shorter than this is a tap, not speech: nothing is sent. */
const SHORTEST_SECONDS = 0.3;

let recorder: MicRecorder | undefined;
let limitTimer: number | undefined;
/** Stop (or cancel) was asked for while the microphone was still being opened. */
let pendingEnd: 'stop' | 'cancel' | undefined;
/** A terminal pane had the keys when recording began: the transcript is an instruction for it. */
let towardsPane = false;
let clipSerial = 0;

function terminalHasFocus(): boolean {
  return document.activeElement?.classList.contains('xterm-helper-textarea') === true;
}

/**
 * Starts recording (the microphone button, the push-to-talk key). With no `[voice] endpoint`
 * nothing is recorded: the input explains how to set one up, and the microphone is not asked for.
 * `byKey`: the push-to-talk key, which makes a transcript spoken at a terminal pane a `# ` line.
 */
export async function startRecording(byKey = false): Promise<void> {
  const voice = useVoiceStore.getState();
  const settings = useSettingsStore.getState().settings.voice;
  if (!settings.endpoint) {
    voice.setNotice({ kind: 'setup', text: VOICE_SETUP_TEXT });
    openAiPanel({ focusInput: false });
    return;
  }
  if (voice.phase === 'starting' || voice.phase === 'recording') return;
  stopSpeaking();
  towardsPane = byKey && terminalHasFocus();
  pendingEnd = undefined;
  voice.setNotice(undefined);
  voice.setPhase('starting');
  openAiPanel({ focusInput: false });
  try {
    recorder = await MicRecorder.start((level) => useVoiceStore.getState().setLevel(level));
  } catch (error) {
    voice.setPhase('idle');
    voice.setNotice({ kind: 'error', text: microphoneProblem(error) });
    return;
  }
  voice.setPhase('recording');
  limitTimer = window.setTimeout(() => void stopRecording(), settings.max_seconds * 1000);
  window.addEventListener('keydown', cancelOnEscape, true);
  if (pendingEnd === 'cancel') cancelRecording();
  else if (pendingEnd === 'stop') await stopRecording();
}

/** Ends the recording and sends it; the transcript lands in the input (or is sent). */
export async function stopRecording(): Promise<void> {
  const voice = useVoiceStore.getState();
  if (voice.phase === 'starting') {
    pendingEnd = 'stop';
    return;
  }
  const active = takeRecorder();
  if (!active) return;
  voice.setPhase('transcribing');
  try {
    const recording = await active.stop(useSettingsStore.getState().settings.voice.max_seconds);
    if (recording.seconds < SHORTEST_SECONDS) {
      voice.setNotice({ kind: 'info', text: 'That was too short to hear anything: hold the key (or keep the button on) while you speak.' });
      return;
    }
    const clipId = ++clipSerial;
    if (!engine().sendVoiceClip(clipId, recording.wav)) throw new Error('Not connected to the Tandem engine.');
    const transcript = await engine().request('voice.transcribe', { clipId });
    await landTranscript(transcript.text, towardsPane);
  } catch (error) {
    voice.setNotice({ kind: 'error', text: `No transcript: ${error instanceof Error ? error.message : String(error)}` });
  } finally {
    useVoiceStore.getState().setPhase('idle');
  }
}

/** Esc while recording: the microphone goes off and nothing is sent. */
export function cancelRecording(): void {
  if (useVoiceStore.getState().phase === 'starting') {
    pendingEnd = 'cancel';
    return;
  }
  const active = takeRecorder();
  if (!active) return;
  active.cancel();
  useVoiceStore.getState().setPhase('idle');
  useVoiceStore.getState().setNotice({ kind: 'info', text: 'Recording cancelled; nothing was sent.' });
}

/** The microphone button, the palette, and the key in toggle mode (`byKey`). */
export function toggleRecording(byKey = false): void {
  const phase = useVoiceStore.getState().phase;
  if (phase === 'recording' || phase === 'starting') void stopRecording();
  else if (phase !== 'transcribing') void startRecording(byKey);
}

function takeRecorder(): MicRecorder | undefined {
  const active = recorder;
  recorder = undefined;
  window.clearTimeout(limitTimer);
  window.removeEventListener('keydown', cancelOnEscape, true);
  return active;
}

function cancelOnEscape(event: KeyboardEvent): void {
  if (event.key !== 'Escape') return;
  event.preventDefault();
  event.stopPropagation();
  cancelRecording();
}
