import { chordLabel } from '../actions/chords';
import { primaryChord } from '../actions/keybindings';
import { toggleAiPanel } from '../ai/panelControl';

/**
 * How to reach the AI from the focused pane's prompt: `#` where shell integration tells
 * prompt from command, `##` where it cannot (a lone `#` is then an ordinary shell comment).
 */
export function AiPrefixStatus({ integration }: { integration: boolean }) {
  const prefix = integration ? '#' : '##';
  const chord = primaryChord('ai.toggle');
  return (
    <button
      type="button"
      className="status-bar__ai-prefix"
      data-testid="ai-prefix"
      data-prefix={prefix}
      title={`Start a prompt line with ${prefix} to ask the AI. Click to show the AI panel${chord ? ` (${chordLabel(chord)})` : ''}.`}
      onClick={toggleAiPanel}
    >
      {integration ? 'AI: type # at the prompt' : 'AI: ## (no shell integration)'}
    </button>
  );
}
