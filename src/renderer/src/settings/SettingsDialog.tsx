import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { SETTING_LIMITS, type SettingsPatch } from '../../../shared/settings';
import { useBannerStore } from '../app/bannerStore';
import { useUiStore } from '../app/uiStore';
import { storeApiKey, switchModel } from '../ai/agentRequests';
import { focusActivePane } from '../terminal/paneLifecycle';
import { ApiKeyField, KEY_STORED_TEXT } from './ApiKeyField';
import { BACKEND_LABELS, CONFIRM_CLOSE_LABELS, PUSH_TO_TALK_MODE_LABELS, THEME_LABELS, VOICE_SEND_LABELS, draftFrom, patchFrom, type Draft } from './settingsDraft';
import { MAX_RECORDING_SECONDS } from '../../../shared/voiceSettings';
import { useSettingsStore } from './settingsStore';
import { updateSettings } from './updateSettings';

export function SettingsDialog() {
  const settings = useSettingsStore((state) => state.settings);
  const configPath = useSettingsStore((state) => state.configPath);
  const shellOverride = useSettingsStore((state) => state.shellOverride);
  const setOpen = useUiStore((state) => state.setSettingsOpen);
  const [draft, setDraft] = useState(() => draftFrom(settings));
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  /** Typed API key; sent with `agent.key` and then dropped, never part of the settings. */
  const [apiKey, setApiKey] = useState('');
  const firstFieldRef = useRef<HTMLInputElement>(null);

  useEffect(() => firstFieldRef.current?.focus(), []);

  const close = () => {
    setOpen(false);
    focusActivePane();
  };

  const change = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((current) => ({ ...current, [key]: value }));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    let patch: SettingsPatch;
    try {
      patch = patchFrom(draft, settings);
    } catch (problem) {
      setError(problem instanceof Error ? problem.message : String(problem));
      return;
    }
    const key = apiKey.trim();
    if (Object.keys(patch).length === 0 && !key) {
      close();
      return;
    }
    setSaving(true);
    try {
      if (key) {
        const { stored } = await storeApiKey({ backend: draft.aiBackend, key });
        setApiKey('');
        useBannerStore.getState().show({ key: 'ai-key', level: 'info', message: `API key: ${KEY_STORED_TEXT[stored]}`, dismissible: true });
      }
      if (Object.keys(patch).length > 0) await updateSettings(patch);
      if (patch.ai?.backend !== undefined || patch.ai?.model) {
        void switchModel({ backend: patch.ai.backend, model: patch.ai.model || undefined });
      }
      close();
    } catch (problem) {
      setError(problem instanceof Error ? problem.message : String(problem));
    } finally {
      setSaving(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
    }
  };

  return (
    <div className="overlay" onMouseDown={close}>
      <form
        className="settings"
        data-testid="settings-dialog"
        role="dialog"
        aria-label="Settings"
        onMouseDown={(event) => event.stopPropagation()}
        onKeyDown={onKeyDown}
        onSubmit={(event) => void onSubmit(event)}
      >
        <h2 className="settings__title">Settings</h2>
        {configPath && <p className="settings__path">Saved to {configPath}</p>}

        <fieldset>
          <legend>Shell</legend>
          <label>
            Shell path
            <input
              ref={firstFieldRef}
              name="shellPath"
              value={draft.shellPath}
              placeholder="$SHELL, then /bin/bash"
              spellCheck={false}
              onChange={(event) => change('shellPath', event.target.value)}
            />
          </label>
          <label className="settings__check">
            <input type="checkbox" name="integration" checked={draft.integration} onChange={(event) => change('integration', event.target.checked)} />
            Shell integration (command blocks from OSC 133 marks)
          </label>
          {shellOverride ? (
            <p className="settings__hint settings__hint--override" data-testid="settings-shell-override">
              This session was started with --shell {shellOverride}: new panes use that shell, not this setting, until Tandem is started without it.
            </p>
          ) : (
            <p className="settings__hint">Shell changes apply to new panes.</p>
          )}
        </fieldset>

        <fieldset>
          <legend>Terminal</legend>
          <label>
            Font family
            <input name="fontFamily" value={draft.fontFamily} spellCheck={false} onChange={(event) => change('fontFamily', event.target.value)} />
          </label>
          <div className="settings__row">
            <label>
              Font size
              <input name="fontSize" type="number" {...SETTING_LIMITS.fontSize} value={draft.fontSize} onChange={(event) => change('fontSize', event.target.value)} />
            </label>
            <label>
              Scrollback lines
              <input name="scrollback" type="number" {...SETTING_LIMITS.scrollback} value={draft.scrollback} onChange={(event) => change('scrollback', event.target.value)} />
            </label>
            <label>
              Theme
              <select name="theme" value={draft.theme} onChange={(event) => change('theme', event.target.value as Draft['theme'])}>
                {SETTING_LIMITS.themes.map((theme) => (
                  <option key={theme} value={theme}>
                    {THEME_LABELS[theme]}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <label className="settings__check">
            <input type="checkbox" name="cursorBlink" checked={draft.cursorBlink} onChange={(event) => change('cursorBlink', event.target.checked)} />
            Blinking cursor
          </label>
          <label className="settings__check">
            <input type="checkbox" name="webgl" checked={draft.webgl} onChange={(event) => change('webgl', event.target.checked)} />
            GPU rendering (WebGL) where available
          </label>
          <label className="settings__check">
            <input type="checkbox" name="copyOnSelect" checked={draft.copyOnSelect} onChange={(event) => change('copyOnSelect', event.target.checked)} />
            Copy on select
          </label>
          <label title="Closing a pane, a tab or the window asks first. Enter in that question cancels.">
            Ask before closing
            <select name="confirmClose" value={draft.confirmClose} onChange={(event) => change('confirmClose', event.target.value as Draft['confirmClose'])}>
              {SETTING_LIMITS.confirmClose.map((choice) => (
                <option key={choice} value={choice}>
                  {CONFIRM_CLOSE_LABELS[choice]}
                </option>
              ))}
            </select>
          </label>
        </fieldset>

        <fieldset>
          <legend>Session</legend>
          <label className="settings__check">
            <input type="checkbox" name="sessionRestore" checked={draft.sessionRestore} onChange={(event) => change('sessionRestore', event.target.checked)} />
            Restore tabs, splits, directories and scrollback on start
          </label>
        </fieldset>

        <fieldset data-testid="settings-ai">
          <legend>AI</legend>
          <div className="settings__row">
            <label>
              Backend
              <select name="aiBackend" value={draft.aiBackend} onChange={(event) => change('aiBackend', event.target.value as Draft['aiBackend'])}>
                {SETTING_LIMITS.backends.map((backend) => (
                  <option key={backend} value={backend}>
                    {BACKEND_LABELS[backend]}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Model
              <input name="aiModel" value={draft.aiModel} spellCheck={false} maxLength={SETTING_LIMITS.modelLength} onChange={(event) => change('aiModel', event.target.value)} />
            </label>
            <label title="Summarises long command output for the agent and for a block's Summarize output. Empty: claude-haiku-4-5 on Anthropic; an OpenAI-compatible endpoint needs a name here, else summaries are made by local filtering.">
              Small model (summaries)
              <input
                name="aiSmallModel"
                value={draft.aiSmallModel}
                spellCheck={false}
                maxLength={SETTING_LIMITS.modelLength}
                placeholder={draft.aiBackend === 'anthropic' ? 'claude-haiku-4-5' : 'none: local filtering'}
                onChange={(event) => change('aiSmallModel', event.target.value)}
              />
            </label>
          </div>
          <label>
            Base URL
            <input
              name="aiBaseUrl"
              value={draft.aiBaseUrl}
              spellCheck={false}
              maxLength={SETTING_LIMITS.baseUrlLength}
              placeholder={draft.aiBackend === 'anthropic' ? 'ANTHROPIC_BASE_URL, then the Anthropic API' : 'OpenAI, or e.g. http://127.0.0.1:11434/v1 for Ollama, LM Studio…'}
              onChange={(event) => change('aiBaseUrl', event.target.value)}
            />
          </label>
          <div className="settings__row">
            <label>
              Max output tokens
              <input name="aiMaxOutputTokens" type="number" {...SETTING_LIMITS.maxOutputTokens} value={draft.aiMaxOutputTokens} onChange={(event) => change('aiMaxOutputTokens', event.target.value)} />
            </label>
            <label>
              Step timeout (seconds)
              <input name="aiStepTimeout" type="number" {...SETTING_LIMITS.stepTimeoutSeconds} value={draft.aiStepTimeout} onChange={(event) => change('aiStepTimeout', event.target.value)} />
            </label>
          </div>
          <label className="settings__check" title="Off: plan steps run with PAGER=cat, GIT_PAGER=cat (and MANPAGER, SYSTEMD_PAGER, GH_PAGER, AWS_PAGER), so git log and the like print instead of waiting in less.">
            <input type="checkbox" name="aiStepsUsePager" checked={draft.aiStepsUsePager} onChange={(event) => change('aiStepsUsePager', event.target.checked)} />
            Plan steps may open a pager
          </label>
          <div className="settings__row">
            <label>
              Recent commands in context
              <input name="aiContextBlocks" type="number" {...SETTING_LIMITS.contextBlocks} value={draft.aiContextBlocks} onChange={(event) => change('aiContextBlocks', event.target.value)} />
            </label>
            <label>
              History budget (tokens)
              <input name="aiHistoryBudget" type="number" {...SETTING_LIMITS.historyTokenBudget} value={draft.aiHistoryBudget} onChange={(event) => change('aiHistoryBudget', event.target.value)} />
            </label>
            <label title="Tokens sent and received until the window closes: a warning at 80%, a stop at 100%. 0 means no limit.">
              Session token budget
              <input name="aiSessionBudget" type="number" {...SETTING_LIMITS.sessionTokenBudget} value={draft.aiSessionBudget} onChange={(event) => change('aiSessionBudget', event.target.value)} />
            </label>
          </div>
          <label title="Only these environment variables are shown to the model; names ending in _KEY, _SECRET, _TOKEN or _PASSWORD never are.">
            Environment the AI sees
            <input name="includeEnv" type="text" value={draft.includeEnv} spellCheck={false} onChange={(event) => change('includeEnv', event.target.value)} />
          </label>
          <ApiKeyField backend={draft.aiBackend} value={apiKey} onChange={setApiKey} />
        </fieldset>

        <fieldset data-testid="settings-companion">
          <legend>Companion</legend>
          <label className="settings__check" title="Made from your commands alone: nothing is sent to a model until you ask.">
            <input type="checkbox" name="companionHints" checked={draft.companionHints} onChange={(event) => change('companionHints', event.target.checked)} />
            Hints when I look stuck
          </label>
          <div className="settings__row">
            <label title="Failed commands in a row before “Stuck? ?? for help”. Ctrl+C and expected failures (grep -q, test, diff, cmp) do not count.">
              Failures in a row
              <input name="companionErrorCascade" type="number" {...SETTING_LIMITS.errorCascade} value={draft.companionErrorCascade} onChange={(event) => change('companionErrorCascade', event.target.value)} />
            </label>
            <label title="Times the same command fails in a row before “Try ?? why isn't this working”.">
              Same command failing
              <input name="companionRetryLoop" type="number" {...SETTING_LIMITS.retryLoop} value={draft.companionRetryLoop} onChange={(event) => change('companionRetryLoop', event.target.value)} />
            </label>
            <label title="Seconds without typing in the focused pane after a failed command before “Need help with that error?”. 0: never.">
              Pause after an error (seconds)
              <input name="companionLongPause" type="number" {...SETTING_LIMITS.longPauseSeconds} value={draft.companionLongPause} onChange={(event) => change('companionLongPause', event.target.value)} />
            </label>
          </div>
        </fieldset>


        <fieldset data-testid="settings-voice">
          <legend>Voice</legend>
          <label title="An OpenAI-compatible speech-to-text server (a local whisper.cpp server, speaches, or a cloud provider); /audio/transcriptions is added. Empty: voice is off, nothing is recorded or sent.">
            Transcription endpoint
            <input
              name="voiceEndpoint"
              value={draft.voiceEndpoint}
              spellCheck={false}
              placeholder="off; e.g. http://127.0.0.1:8080/v1"
              onChange={(event) => change('voiceEndpoint', event.target.value)}
            />
          </label>
          <div className="settings__row">
            <label title="Always sent; whisper.cpp ignores it.">
              Model
              <input name="voiceModel" value={draft.voiceModel} spellCheck={false} onChange={(event) => change('voiceModel', event.target.value)} />
            </label>
            <label title="ISO-639-1 code such as en or de. Empty: the server detects the language.">
              Language
              <input name="voiceLanguage" value={draft.voiceLanguage} spellCheck={false} placeholder="detect" onChange={(event) => change('voiceLanguage', event.target.value)} />
            </label>
            <label title="The environment variable that holds the endpoint's key, sent as a Bearer token. The key itself is never written to config.toml.">
              Key variable
              <input name="voiceApiKeyEnv" value={draft.voiceApiKeyEnv} spellCheck={false} placeholder="none" onChange={(event) => change('voiceApiKeyEnv', event.target.value)} />
            </label>
          </div>
          <div className="settings__row">
            <label title="A key chord such as Ctrl+Shift+M. Empty: Ctrl+Shift+M (⇧⌘M on macOS).">
              Push-to-talk key
              <input name="voiceKey" value={draft.voiceKey} spellCheck={false} placeholder="Ctrl+Shift+M" onChange={(event) => change('voiceKey', event.target.value)} />
            </label>
            <label>
              Recording
              <select name="voiceMode" value={draft.voiceMode} onChange={(event) => change('voiceMode', event.target.value as Draft['voiceMode'])}>
                {Object.entries(PUSH_TO_TALK_MODE_LABELS).map(([mode, label]) => (
                  <option key={mode} value={mode}>
                    {label}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Transcript
              <select name="voiceSend" value={draft.voiceSend} onChange={(event) => change('voiceSend', event.target.value as Draft['voiceSend'])}>
                {Object.entries(VOICE_SEND_LABELS).map(([send, label]) => (
                  <option key={send} value={send}>
                    {label}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Longest recording (seconds)
              <input name="voiceMaxSeconds" type="number" min={1} max={MAX_RECORDING_SECONDS} value={draft.voiceMaxSeconds} onChange={(event) => change('voiceMaxSeconds', event.target.value)} />
            </label>
          </div>
          <label className="settings__check">
            <input type="checkbox" name="voiceSpeakAnswers" checked={draft.voiceSpeakAnswers} onChange={(event) => change('voiceSpeakAnswers', event.target.checked)} />
            Read the agent's answers aloud
          </label>
          <label title="An OpenAI-compatible /audio/speech server for spoken answers. Empty: the system's speech synthesis.">
            Speech endpoint
            <input
              name="voiceSpeechEndpoint"
              value={draft.voiceSpeechEndpoint}
              spellCheck={false}
              placeholder="the system's speech synthesis"
              onChange={(event) => change('voiceSpeechEndpoint', event.target.value)}
            />
          </label>
        </fieldset>

        {error && (
          <p className="settings__error" role="alert" data-testid="settings-error">
            {error}
          </p>
        )}
        <div className="settings__actions">
          <button type="button" onClick={close}>
            Cancel
          </button>
          <button type="submit" className="button--primary" disabled={saving} data-testid="settings-save">
            {saving ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
    </div>
  );
}
