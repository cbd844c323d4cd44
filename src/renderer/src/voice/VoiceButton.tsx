import { chordLabel } from '../actions/chords';
import { primaryChord } from '../actions/keybindings';
import { useSettingsStore } from '../settings/settingsStore';
import { toggleRecording } from './pushToTalk';
import { PUSH_TO_TALK_ACTION } from './pushToTalkKey';
import { useVoiceStore } from './voiceStore';

/** The microphone button in the AI input: press to record, press again to send what was said. */
export function VoiceButton() {
  const phase = useVoiceStore((state) => state.phase);
  const configured = useSettingsStore((state) => state.settings.voice.endpoint !== '');
  const mode = useSettingsStore((state) => state.settings.voice.push_to_talk_mode);
  const recording = phase === 'recording' || phase === 'starting';
  const chord = primaryChord(PUSH_TO_TALK_ACTION);
  const key = chord ? ` — or ${mode === 'hold' ? 'hold' : 'press'} ${chordLabel(chord)}` : '';
  const title = !configured ? 'Voice is not set up: click for how' : recording ? 'Stop and transcribe (Esc cancels)' : `Speak an instruction${key}`;
  return (
    <button
      type="button"
      className={`ai-input__mic${recording ? ' ai-input__mic--on' : ''}`}
      data-testid="voice-button"
      data-phase={phase}
      aria-pressed={recording}
      aria-label={title}
      title={title}
      disabled={phase === 'transcribing'}
      // The input keeps the keys: a click must not take focus from where the transcript goes.
      onMouseDown={(event) => event.preventDefault()}
      onClick={() => toggleRecording()}
    >
      <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
        <rect x="5.5" y="1.5" width="5" height="8" rx="2.5" fill="currentColor" />
        <path d="M3.5 7.5a4.5 4.5 0 0 0 9 0M8 12v2.5" stroke="currentColor" strokeWidth="1.3" fill="none" strokeLinecap="round" />
      </svg>
    </button>
  );
}
