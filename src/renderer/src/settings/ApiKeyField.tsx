import { useState, type KeyboardEvent } from 'react';
import type { Settings } from '../../../shared/settings';
import { storeApiKey } from '../ai/agentRequests';

export const KEY_STORED_TEXT = {
  keychain: 'Stored in the OS keychain.',
  memory: 'Kept for this run only (no keychain here); set it again after a restart.',
} as const;

interface ApiKeyFieldProps {
  backend: Settings['ai']['backend'];
  value: string;
  onChange: (key: string) => void;
}

/**
 * An API key goes straight to the engine (`agent.key`) and is forgotten here: the field
 * empties, and nothing can read the key back.
 */
export function ApiKeyField({ backend, value, onChange }: ApiKeyFieldProps) {
  const [result, setResult] = useState<{ ok: boolean; text: string } | undefined>();
  const [storing, setStoring] = useState(false);

  const store = async () => {
    const key = value.trim();
    if (!key || storing) return;
    setStoring(true);
    try {
      const { stored } = await storeApiKey({ backend, key });
      onChange('');
      setResult({ ok: true, text: KEY_STORED_TEXT[stored] });
    } catch (error) {
      setResult({ ok: false, text: `Could not store the key: ${error instanceof Error ? error.message : String(error)}` });
    } finally {
      setStoring(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      // Enter stores the key; it does not submit (and close) the whole dialog.
      event.preventDefault();
      void store();
    }
  };

  return (
    <div className="settings__key">
      <div className="settings__key-row">
        <label>
          API key for {backend === 'anthropic' ? 'Anthropic' : 'the OpenAI-compatible endpoint'}
          <input
            name="apiKey"
            type="password"
            data-testid="settings-api-key"
            value={value}
            autoComplete="off"
            spellCheck={false}
            placeholder="Paste a key to store it (it is never shown again)"
            maxLength={500}
            onChange={(event) => {
              onChange(event.target.value);
              setResult(undefined);
            }}
            onKeyDown={onKeyDown}
          />
        </label>
        <button type="button" data-testid="settings-store-key" disabled={value.trim() === '' || storing} onClick={() => void store()}>
          {storing ? 'Storing…' : 'Store key'}
        </button>
      </div>
      {result && (
        <p className={result.ok ? 'settings__hint' : 'settings__error'} data-testid="settings-key-result" role="status">
          {result.text}
        </p>
      )}
    </div>
  );
}
