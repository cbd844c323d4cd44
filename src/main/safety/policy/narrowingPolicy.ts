import type { Policy } from './policySchema';

/**
 * A run's own policy (`tandem agent --policy FILE`, `TANDEM_POLICY`) may only narrow what the
 * user's policy.toml allows — a child never gets more than its parent. Every setting that can
 * only let something through is taken out before the gate sees the layer; what asks or denies
 * more stays. Returns the narrowed policy and the settings that were taken out, by name.
 */
export function narrowingOnly(policy: Policy): { policy: Policy; ignored: string[] } {
  const ignored: string[] = [];
  const approval = policy.approval;
  if (!approval) return { policy, ignored };
  const drop = <T extends object>(section: T | undefined, name: string, keys: (keyof T)[]): T | undefined => {
    if (!section) return section;
    const kept = { ...section };
    for (const key of keys) {
      const value = kept[key];
      if (value === undefined) continue;
      const mode = key === 'mode' || key === 'default' || key === 'screenshot' || key === 'ui_tree' || key === 'microphone' || key === 'system_audio' || key === 'application' || key === 'speech_to_text';
      if (mode && value !== 'allow') continue;
      delete kept[key];
      ignored.push(`${name}.${String(key)}`);
    }
    return kept;
  };
  const narrowed: NonNullable<Policy['approval']> = { ...approval };
  if (approval.default === 'allow') {
    delete narrowed.default;
    ignored.push('approval.default');
  }
  narrowed.shell = drop(approval.shell, '[approval.shell]', ['mode', 'allow_read_only', 'allow_patterns']);
  narrowed.filesystem = drop(approval.filesystem, '[approval.filesystem]', ['write']);
  narrowed.network = drop(approval.network, '[approval.network]', ['mode', 'allow_hosts']);
  narrowed.vision = drop(approval.vision, '[approval.vision]', ['screenshot', 'ui_tree']);
  narrowed.ui = drop(approval.ui, '[approval.ui]', ['mode', 'allow_apps']);
  narrowed.audio = drop(approval.audio, '[approval.audio]', ['microphone', 'system_audio', 'application', 'speech_to_text']);
  for (const key of Object.keys(narrowed) as (keyof typeof narrowed)[]) if (narrowed[key] === undefined) delete narrowed[key];
  return { policy: { approval: narrowed }, ignored };
}
