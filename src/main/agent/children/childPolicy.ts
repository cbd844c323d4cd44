import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { parsePolicyText, type PolicyLayer } from '../../safety/policy/policyFiles';
import type { PolicyVerdict } from '../../safety/policy/policyEvaluator';
import type { Policy } from '../../safety/policy/policySchema';

/** What a spawn_agent call asked the child's policy to be, read and checked. */
export interface SpawnPolicy {
  /** The TOML the child gets as one more `--policy` layer (it can only narrow). */
  text: string;
  /** As written: what it asked to allow is checked against the parent's policy before the child starts. */
  asked: Policy;
  /** The narrowed layer (what the child's gate will see). */
  layer: PolicyLayer;
}

/**
 * The `policy` argument of spawn_agent: a path to a policy TOML file (relative to the cwd), or
 * the TOML itself. A policy that does not parse is refused: a child with a policy nobody can
 * read would ask for everything, which is not what the model asked for.
 */
export function readSpawnPolicy(policy: string, cwd: string): { ok: true; policy: SpawnPolicy } | { ok: false; error: string } {
  const trimmed = policy.trim();
  const path = !trimmed.includes('\n') && !trimmed.includes('=') ? (isAbsolute(trimmed) ? trimmed : resolve(cwd, trimmed)) : undefined;
  let text = trimmed;
  if (path !== undefined) {
    if (!existsSync(path) || !statSync(path).isFile()) return { ok: false, error: `the policy file ${path} does not exist` };
    text = readFileSync(path, 'utf8');
  }
  const asked = parsePolicyText(text, path ?? 'the spawn policy', 'user');
  if (asked.error || !asked.policy) return { ok: false, error: `its policy is not usable: ${asked.error ?? 'empty'}` };
  const layer = parsePolicyText(text, path ?? 'the spawn policy', 'run');
  return { ok: true, policy: { text, asked: asked.policy, layer } };
}

/**
 * A child may never be given what its parent's policy refuses: a spawn whose policy asks to
 * allow a command (or a write) the parent's policy denies is refused before the child starts,
 * with the parent's rule. What the parent would only ask about is not refused: the child's
 * allow is dropped (narrowingOnly) and the child asks too, through the parent.
 */
export async function refusedByParent(asked: Policy, verdict: (command: string) => Promise<PolicyVerdict>): Promise<string | undefined> {
  const patterns = asked.approval?.shell?.allow_patterns ?? [];
  for (const pattern of patterns) {
    const literal = pattern
      .split(/\s+/)
      .filter((word) => word && !/[*?[]/.test(word))
      .join(' ');
    if (!literal) continue;
    const parent = await verdict(literal);
    if (parent.decision === 'deny') return `the child asked to be allowed "${pattern}", which this agent's policy denies (${parent.rule})`;
  }
  for (const glob of asked.approval?.filesystem?.write ?? []) {
    const parent = await verdict(`touch ${glob.replace(/[*?]+/g, 'x')}`);
    if (parent.decision === 'deny') return `the child asked to write "${glob}", which this agent's policy denies (${parent.rule})`;
  }
  return undefined;
}

/** The card's lines about the policy: what the spawn narrows, and what it asked that a child cannot have. */
export function policyLines(policy: SpawnPolicy | undefined): string[] {
  const lines = ["It runs under this agent's policy and can never allow more: what would ask here, asks here."];
  if (!policy) return lines;
  const approval = policy.layer.policy?.approval;
  const narrowed = [
    approval?.default && `default "${approval.default}"`,
    approval?.shell?.mode && `commands "${approval.shell.mode}"`,
    approval?.shell?.deny_patterns?.length && `denies ${approval.shell.deny_patterns.map((pattern) => `"${pattern}"`).join(', ')}`,
    approval?.filesystem?.read?.length && `reads only ${approval.filesystem.read.join(', ')}`,
    approval?.filesystem?.deny?.length && `never touches ${approval.filesystem.deny.join(', ')}`,
    approval?.network?.mode && `network "${approval.network.mode}"`,
  ].filter(Boolean);
  if (narrowed.length) lines.push(`Narrowed further: ${narrowed.join('; ')}.`);
  if (policy.layer.ignored?.length) lines.push(`Ignored (a child cannot widen its parent's policy): ${policy.layer.ignored.join(', ')}.`);
  return lines;
}
