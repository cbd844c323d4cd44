import { setUserChord } from '../actions/keybindings';
import { useSettingsStore } from '../settings/settingsStore';
import { startRecording, stopRecording, toggleRecording } from './pushToTalk';

/** The push-to-talk key's action (appActions.ts; keybindings.ts binds it; `[voice] push_to_talk_key` replaces the chord). */
export const PUSH_TO_TALK_ACTION = 'voice.pushToTalk';

/**
 * The push-to-talk key went down (shortcuts ignore its auto-repeat). `hold`: records until a
 * key is released or the window loses focus; `toggle`: one press starts, the next stops.
 */
export function pushToTalkPressed(): void {
  if (useSettingsStore.getState().settings.voice.push_to_talk_mode === 'toggle') {
    toggleRecording(true);
    return;
  }
  const release = () => {
    window.removeEventListener('keyup', release, true);
    window.removeEventListener('blur', release);
    void stopRecording();
  };
  window.addEventListener('keyup', release, true);
  window.addEventListener('blur', release);
  void startRecording(true);
}

/** `[voice] push_to_talk_key` replaces the default chord, live as config.toml changes. */
export function followPushToTalkKey(): () => void {
  const apply = () => setUserChord(PUSH_TO_TALK_ACTION, useSettingsStore.getState().settings.voice.push_to_talk_key || undefined);
  apply();
  return useSettingsStore.subscribe(apply);
}
