import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { Settings, SettingsPatch } from '../../../shared/settings';
import { useUiStore } from '../app/uiStore';
import { focusActivePane } from '../terminal/paneLifecycle';
import { useSettingsStore } from './settingsStore';
import { updateSettings } from './updateSettings';

interface Draft {
  shellPath: string;
  integration: boolean;
  fontFamily: string;
  fontSize: string;
  scrollback: string;
  theme: Settings['terminal']['theme'];
  cursorBlink: boolean;
  webgl: boolean;
  copyOnSelect: boolean;
  sessionRestore: boolean;
}

function draftFrom(settings: Settings): Draft {
  return {
    shellPath: settings.shell.path,
    integration: settings.shell.integration,
    fontFamily: settings.terminal.fontFamily,
    fontSize: String(settings.terminal.fontSize),
    scrollback: String(settings.terminal.scrollback),
    theme: settings.terminal.theme,
    cursorBlink: settings.terminal.cursorBlink,
    webgl: settings.terminal.webgl,
    copyOnSelect: settings.terminal.copyOnSelect,
    sessionRestore: settings.session.restore,
  };
}

function parseWhole(text: string, label: string, min: number, max: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${label} must be a whole number from ${min} to ${max}.`);
  }
  return value;
}

/** Only what changed goes to the engine, one section at a time. */
function patchFrom(draft: Draft, settings: Settings): SettingsPatch {
  const patch: SettingsPatch = {};
  const shell: NonNullable<SettingsPatch['shell']> = {};
  if (draft.shellPath.trim() !== settings.shell.path) shell.path = draft.shellPath.trim();
  if (draft.integration !== settings.shell.integration) shell.integration = draft.integration;
  if (Object.keys(shell).length > 0) patch.shell = shell;

  const terminal: NonNullable<SettingsPatch['terminal']> = {};
  const fontSize = parseWhole(draft.fontSize, 'Font size', 6, 72);
  const scrollback = parseWhole(draft.scrollback, 'Scrollback', 0, 1_000_000);
  if (draft.fontFamily.trim() && draft.fontFamily.trim() !== settings.terminal.fontFamily) terminal.fontFamily = draft.fontFamily.trim();
  if (fontSize !== settings.terminal.fontSize) terminal.fontSize = fontSize;
  if (scrollback !== settings.terminal.scrollback) terminal.scrollback = scrollback;
  if (draft.theme !== settings.terminal.theme) terminal.theme = draft.theme;
  if (draft.cursorBlink !== settings.terminal.cursorBlink) terminal.cursorBlink = draft.cursorBlink;
  if (draft.webgl !== settings.terminal.webgl) terminal.webgl = draft.webgl;
  if (draft.copyOnSelect !== settings.terminal.copyOnSelect) terminal.copyOnSelect = draft.copyOnSelect;
  if (Object.keys(terminal).length > 0) patch.terminal = terminal;

  if (draft.sessionRestore !== settings.session.restore) patch.session = { restore: draft.sessionRestore };
  return patch;
}

export function SettingsDialog() {
  const settings = useSettingsStore((state) => state.settings);
  const configPath = useSettingsStore((state) => state.configPath);
  const setOpen = useUiStore((state) => state.setSettingsOpen);
  const [draft, setDraft] = useState(() => draftFrom(settings));
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
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
    if (Object.keys(patch).length === 0) {
      close();
      return;
    }
    setSaving(true);
    try {
      await updateSettings(patch);
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
          <p className="settings__hint">Shell changes apply to new panes.</p>
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
              <input name="fontSize" type="number" min={6} max={72} value={draft.fontSize} onChange={(event) => change('fontSize', event.target.value)} />
            </label>
            <label>
              Scrollback lines
              <input name="scrollback" type="number" min={0} max={1_000_000} value={draft.scrollback} onChange={(event) => change('scrollback', event.target.value)} />
            </label>
            <label>
              Theme
              <select name="theme" value={draft.theme} onChange={(event) => change('theme', event.target.value as Draft['theme'])}>
                <option value="system">Follow system</option>
                <option value="dark">Dark</option>
                <option value="light">Light</option>
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
        </fieldset>

        <fieldset>
          <legend>Session</legend>
          <label className="settings__check">
            <input type="checkbox" name="sessionRestore" checked={draft.sessionRestore} onChange={(event) => change('sessionRestore', event.target.checked)} />
            Restore tabs, splits, directories and scrollback on start
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
