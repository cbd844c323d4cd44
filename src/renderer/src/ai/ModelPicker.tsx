import { useEffect, useState, type FormEvent } from 'react';
import type { ConversationView, ModelList } from '../../../shared/agent';
import { fetchModelList, switchModel } from './agentRequests';

const BACKEND_LABELS = { anthropic: 'Anthropic', 'openai-compatible': 'OpenAI-compatible' } as const;

/**
 * The model and backend of this conversation: shown in the header, changed in place
 * (Settings → AI holds the default for new windows). The backend comes first; the models
 * offered are that backend's: its endpoint's own list, or suggestions when the endpoint
 * does not list them. Any model id can be typed.
 */
export function ModelPicker({ model, backend }: { model: string; backend: ConversationView['backend'] }) {
  const [editing, setEditing] = useState(false);
  const [draftModel, setDraftModel] = useState(model);
  const [draftBackend, setDraftBackend] = useState(backend);
  const [list, setList] = useState<ModelList | undefined>();

  useEffect(() => {
    if (!editing) return;
    let current = true;
    void fetchModelList(draftBackend).then((fetched) => {
      if (current) setList(fetched);
    });
    return () => {
      current = false;
    };
  }, [editing, draftBackend]);

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
  // A list for the backend chosen before is not shown while this one's is fetched.
  const shown = list?.backend === draftBackend ? list : undefined;
  const models = shown?.models ?? [];

  return (
    <form className="ai-model-picker" data-testid="ai-model-picker" onSubmit={apply}>
      <select
        aria-label="Backend for this conversation"
        value={draftBackend}
        onChange={(event) => setDraftBackend(event.target.value as ConversationView['backend'])}
      >
        <option value="anthropic">{BACKEND_LABELS.anthropic}</option>
        <option value="openai-compatible">{BACKEND_LABELS['openai-compatible']}</option>
      </select>
      <input
        aria-label={`Model for this conversation (${BACKEND_LABELS[draftBackend]})`}
        data-testid="ai-model-input"
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
      <datalist id="ai-model-suggestions" data-testid="ai-model-list" data-source={shown?.source} data-backend={shown?.backend}>
        {models.map((id) => (
          <option key={id} value={id} />
        ))}
      </datalist>
      <button type="submit" disabled={draftModel.trim() === ''}>
        Use
      </button>
      <span className="ai-model-picker__source" data-testid="ai-model-source" title={shown?.note}>
        {shown === undefined
          ? 'asking the endpoint…'
          : shown.source === 'endpoint'
            ? `${models.length} from the endpoint`
            : models.length > 0
              ? 'suggestions'
              : 'no list: type a model name'}
      </span>
    </form>
  );
}
