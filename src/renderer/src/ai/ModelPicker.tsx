import { useState, type FormEvent } from 'react';
import type { ConversationView } from '../../../shared/agent';
import { switchModel } from './agentRequests';

const BACKEND_LABELS = { anthropic: 'Anthropic', 'openai-compatible': 'OpenAI-compatible' } as const;
/** Suggestions only: any model id the endpoint knows can be typed. */
const SUGGESTED_MODELS = ['claude-sonnet-5-5', 'claude-opus-5-5', 'claude-haiku-5-5', 'gpt-5', 'llama3.1', 'qwen2.5-coder'];

/**
 * The model and backend of this conversation: shown in the header, changed in place
 * (Settings → AI holds the default for new windows).
 */
export function ModelPicker({ model, backend }: { model: string; backend: ConversationView['backend'] }) {
  const [editing, setEditing] = useState(false);
  const [draftModel, setDraftModel] = useState(model);
  const [draftBackend, setDraftBackend] = useState(backend);

  if (!editing) {
    return (
      <>
        <button
          type="button"
          className="ai-header__model"
          data-testid="ai-model"
          title={`${model}: click to use another model for this conversation`}
          onClick={() => {
            setDraftModel(model);
            setDraftBackend(backend);
            setEditing(true);
          }}
        >
          {model || 'no model'}
        </button>
        <span className="ai-header__backend" data-testid="ai-backend" data-backend={backend}>
          {BACKEND_LABELS[backend]}
        </span>
      </>
    );
  }

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const next = draftModel.trim();
    if (!next) return;
    setEditing(false);
    void switchModel({ model: next, backend: draftBackend });
  };

  return (
    <form className="ai-model-picker" data-testid="ai-model-picker" onSubmit={apply}>
      <select
        aria-label="Backend for this conversation"
        value={draftBackend}
        onChange={(event) => setDraftBackend(event.target.value as ConversationView['backend'])}
      >
        <option value="anthropic">Anthropic</option>
        <option value="openai-compatible">OpenAI-compatible</option>
      </select>
      <input
        aria-label="Model for this conversation"
        list="ai-model-suggestions"
        value={draftModel}
        autoFocus
        spellCheck={false}
        onChange={(event) => setDraftModel(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            // Leaves the picker; must not reach the panel, where Esc cancels the agent.
            event.preventDefault();
            event.stopPropagation();
            setEditing(false);
          }
        }}
      />
      <datalist id="ai-model-suggestions">
        {SUGGESTED_MODELS.map((suggestion) => (
          <option key={suggestion} value={suggestion} />
        ))}
      </datalist>
      <button type="submit" disabled={draftModel.trim() === ''}>
        Use
      </button>
    </form>
  );
}
