import type { PolicyLayer } from '../policy/policyFiles';
import type { GateDecision } from './gateDecision';
import type { SessionGrants } from './sessionGrants';

/** A `listen` step as the gate judges it. */
export interface ProposedListen {
  /** The step's line: what is recorded, for how long, where it is transcribed. */
  command: string;
  source: 'microphone' | 'system' | 'application';
  /** With source `application`: the application named, whose stream alone is recorded. */
  application?: string;
  /** What "Allow for this session" would grant (`listen to system audio`, `listen to the audio of firefox`). */
  shape: string;
}

type Key = 'microphone' | 'system_audio' | 'application' | 'speech_to_text';

const SOURCE_KEYS: Record<ProposedListen['source'], Key> = { microphone: 'microphone', system: 'system_audio', application: 'application' };

function recorded(listen: ProposedListen): string {
  if (listen.source === 'application') return `what ${listen.application ?? 'one application'} plays (its stream only)`;
  return listen.source === 'microphone' ? 'the microphone' : 'what your speakers play';
}

/**
 * `[approval.audio]` (docs/voice.md "listen"): a recording needs its source's key
 * (`microphone`, `system_audio` or `application`) and `speech_to_text`, since the audio goes to the
 * transcription endpoint. Any layer's `deny` on either refuses it; it runs without asking
 * only when a layer allows both and none asks, or the user allowed it for the session.
 * Everything else asks: by default every recording asks (no "approved earlier" as looks have).
 */
export function decideAudio(layers: readonly PolicyLayer[], grants: Pick<SessionGrants, 'has'>, listen: ProposedListen): GateDecision {
  const sourceKey = SOURCE_KEYS[listen.source];
  const modeOf = (layer: PolicyLayer, key: Key) => (layer.error ? 'ask' : layer.policy?.approval?.audio?.[key]);
  const decided = (decision: GateDecision['decision'], rule: string, decidedBy: GateDecision['decidedBy']): GateDecision => ({
    decision,
    blocked: false,
    level: 'yellow',
    reasons: [`It records ${recorded(listen)} and sends the audio to the transcription endpoint; the transcript goes to the model.`],
    rule,
    decidedBy,
    command: listen.command,
    shape: listen.shape,
  });
  for (const key of [sourceKey, 'speech_to_text'] as const) {
    const denied = layers.find((layer) => modeOf(layer, key) === 'deny');
    if (denied) return decided('deny', `policy ${denied.file}: [approval.audio] ${key} = "deny"`, 'policy');
  }
  const asks = layers.some((layer) => modeOf(layer, sourceKey) === 'ask' || modeOf(layer, 'speech_to_text') === 'ask');
  const allowsSource = layers.find((layer) => modeOf(layer, sourceKey) === 'allow');
  const allowsText = layers.find((layer) => modeOf(layer, 'speech_to_text') === 'allow');
  if (!asks && allowsSource && allowsText) {
    return decided('allow', `policy ${allowsSource.file}: [approval.audio] ${sourceKey} = "allow" and speech_to_text = "allow"`, 'policy');
  }
  if (grants.has(listen.shape)) return decided('allow', `allowed for this session: ${listen.shape}`, 'grant');
  return decided('ask', 'default: every recording asks ([approval.audio])', 'default');
}
