import { commandSegments, matchingPattern } from './commandPatterns';
import { networkUse, namedPaths, type CommandFacts } from './commandFacts';
import { absolutePath, matchingGlob, type GlobContext } from './pathGlobs';
import type { PolicyLayer } from './policyFiles';
import type { PolicyMode } from './policySchema';
import type { ClassifiedPart } from '../riskTypes';

export interface PolicyVerdict {
  decision: PolicyMode;
  /** Which file and setting decided, for the approval card and the audit log. */
  rule: string;
  /** Allowed by an allow pattern that names it, without wildcards: the only way a RED command runs. */
  explicit?: boolean;
  /** Allowed by `allow_read_only` alone: for its level, which the classifier judged (also for a step on another host). */
  readOnly?: boolean;
}

const STRICTNESS: Readonly<Record<PolicyMode, number>> = { allow: 0, ask: 1, deny: 2 };

/**
 * Step 1 of the decision cascade: the deny lists of every layer (shell deny patterns,
 * filesystem deny globs, a network mode of "deny"). A match denies at once, before hooks.
 */
export function policyDenyList(layers: readonly PolicyLayer[], facts: CommandFacts): PolicyVerdict | undefined {
  for (const layer of layers) {
    const shell = layer.policy?.approval?.shell;
    if (shell?.deny_patterns) {
      // Each parsed command again as its words (`/bin/rm`, `\rm`, `'rm'` are rm; `bash -c "…"` and `sudo -u root …` bodies are their own parts).
      const parsed = facts.parts.flatMap((part) => [part.command, part.words.join(' ')]);
      for (const text of [facts.command, ...commandSegments(facts.command), ...parsed]) {
        const pattern = matchingPattern(shell.deny_patterns, text);
        if (pattern) return { decision: 'deny', rule: `${source(layer, facts)}: [approval.shell] deny_patterns "${pattern}"` };
      }
    }
    const fsDeny = layer.policy?.approval?.filesystem?.deny;
    if (fsDeny) {
      const context = { cwd: facts.cwd, home: facts.home };
      // Every argument may be a path (`cat .env` reads one): a false match here costs a rephrase, a missed one is a read of a denied file.
      const touched = [...facts.parts.flatMap((part) => [...part.writes, ...part.words.slice(1)]), ...namedPaths(facts.command)];
      for (const path of touched) {
        const glob = matchingGlob(fsDeny, path, context);
        if (glob) return { decision: 'deny', rule: `${source(layer, facts)}: [approval.filesystem] deny "${glob}" covers ${path}` };
      }
    }
    const network = networkVerdict(layer, facts);
    if (network?.decision === 'deny') return network;
  }
  return undefined;
}

/**
 * Step 3 of the cascade: what the policy says about a command its deny lists let through.
 * Every layer is judged on its own and the strictest answer wins, so a user file cannot
 * loosen the system file; a layer that says nothing about the command has no say. A broken
 * file says "ask" to everything.
 */
export function policyDecision(layers: readonly PolicyLayer[], facts: CommandFacts): PolicyVerdict {
  let strictest: PolicyVerdict | undefined;
  for (const layer of layers) {
    const verdict = layerDecision(layer, facts);
    if (!verdict) continue;
    if (!strictest || STRICTNESS[verdict.decision] > STRICTNESS[strictest.decision]) strictest = verdict;
    else if (verdict.decision === 'allow' && strictest.decision === 'allow' && verdict.explicit) strictest = verdict;
  }
  return strictest ?? { decision: 'ask', rule: 'default: ask (no policy.toml allows it)' };
}

function layerDecision(layer: PolicyLayer, facts: CommandFacts): PolicyVerdict | undefined {
  if (layer.error || !layer.policy) return { decision: 'ask', rule: `policy ${layer.error ?? `${layer.file} is unusable`}` };
  const approval = layer.policy.approval;
  const where = source(layer, facts);
  const shell = approval?.shell;
  // Only a pattern without wildcards names a command: `rm -rf *` written for build folders must not unblock `rm -rf ~`.
  const exact = shell?.allow_patterns?.filter((pattern) => !hasWildcard(pattern));
  const allowPattern = matchingPattern(exact, facts.command) ?? matchingPattern(shell?.allow_patterns, facts.command);
  if (allowPattern) {
    const explicit = !hasWildcard(allowPattern);
    const uncovered = explicit ? undefined : uncoveredInnerPart(layer, facts, allowPattern);
    if (!uncovered) return { decision: 'allow', rule: `${where}: [approval.shell] allow_patterns "${allowPattern}"`, explicit };
    const rest = layerDecisionWithoutPatterns(layer, facts);
    if (rest?.decision === 'deny') return rest;
    return { decision: 'ask', rule: `${where}: [approval.shell] allow_patterns "${allowPattern}" covers the line, but not what ${uncovered.carriedBy} runs (${innerText(uncovered) || uncovered.command}), which it does not allow on its own` };
  }
  return layerDecisionWithoutPatterns(layer, facts);
}

/**
 * A command another command of the line runs (`vim -c '!rm -rf ~'`, `sudo rm …`, `sh -c '…'`) that
 * the layer would not allow on its own, unless the pattern names its program (`sudo apt *` names
 * apt). An allow pattern for the line must never allow more than its inner commands would be.
 */
function uncoveredInnerPart(layer: PolicyLayer, facts: CommandFacts, pattern: string): ClassifiedPart | undefined {
  const named = new Set(pattern.split(/\s+/).filter((word) => !hasWildcard(word)));
  return facts.parts.find((part) => {
    if (part.carriedBy === undefined) return false;
    if (!part.command.startsWith('(') && named.has(part.command)) return false;
    const alone: ClassifiedPart = { ...part, carriedBy: undefined };
    return layerDecision(layer, { ...facts, command: innerText(part), level: part.level, parts: [alone] })?.decision !== 'allow';
  });
}

function innerText(part: ClassifiedPart): string {
  return part.words.join(' ');
}

function layerDecisionWithoutPatterns(layer: PolicyLayer, facts: CommandFacts): PolicyVerdict | undefined {
  const approval = layer.policy?.approval;
  const where = source(layer, facts);
  const shell = approval?.shell;

  const context = { cwd: facts.cwd, home: facts.home };
  const filesystem = approval?.filesystem;
  if (filesystem?.write) {
    const outside = facts.parts.flatMap((part) => part.writes).find((path) => !matchingGlob(filesystem.write, path, context));
    if (outside) return { decision: 'ask', rule: `${where}: ${outside} is outside [approval.filesystem] write` };
  }
  if (filesystem?.read) {
    const allowed = [...filesystem.read, ...(filesystem.write ?? [])];
    const outside = namedPaths(facts.command).find((path) => !matchingGlob(allowed, path, context));
    if (outside) return { decision: 'ask', rule: `${where}: ${outside} is outside [approval.filesystem] read` };
  }
  const network = networkVerdict(layer, facts);
  if (network?.decision === 'ask') return network;

  const mode = shell?.mode ?? approval?.default;
  if (shell?.allow_read_only && facts.level === 'green' && mode !== 'deny') {
    return { decision: 'allow', rule: `${where}: [approval.shell] allow_read_only (a read-only command)`, readOnly: true };
  }
  if (!mode) return undefined;
  const setting = shell?.mode ? '[approval.shell] mode' : '[approval] default';
  return { decision: mode, rule: `${where}: ${setting} = "${mode}"` };
}

function hasWildcard(pattern: string): boolean {
  return /[*?]/.test(pattern);
}

function networkVerdict(layer: PolicyLayer, facts: CommandFacts): PolicyVerdict | undefined {
  const network = layer.policy?.approval?.network;
  const mode = network?.mode ?? (network?.allow_hosts ? 'ask' : undefined);
  if (!mode || mode === 'allow') return undefined;
  const use = networkUse(facts);
  if (!use) return undefined;
  const foreign = use.hosts.find((host) => !matchingPattern(network?.allow_hosts, host));
  if (use.hosts.length > 0 && foreign === undefined) return undefined;
  const what = foreign ? `${foreign} is not in [approval.network] allow_hosts` : 'a network command whose host is not known';
  return { decision: mode, rule: `${source(layer, facts)}: [approval.network] mode = "${mode}" (${what})` };
}

/**
 * Reads by the agent's file tools: a filesystem deny glob refuses them, and so does a read
 * list that does not cover the path. Undefined when the policy lets the read happen.
 */
export function policyFileRead(layers: readonly PolicyLayer[], path: string, context: GlobContext): PolicyVerdict | undefined {
  for (const layer of layers) {
    // A broken file's deny globs cannot be known; the file tools cannot ask, so they refuse (the agent can still propose a command, which asks).
    if (layer.error || !layer.policy) return { decision: 'deny', rule: `policy ${layer.error ?? `${layer.file} is unusable`}` };
    const filesystem = layer.policy.approval?.filesystem;
    const where = source(layer, context);
    const denied = matchingGlob(filesystem?.deny, path, context);
    if (denied) return { decision: 'deny', rule: `${where}: [approval.filesystem] deny "${denied}"` };
    if (filesystem?.read && !matchingGlob([...filesystem.read, ...(filesystem.write ?? [])], path, context)) {
      return { decision: 'deny', rule: `${where}: ${absolutePath(path, context)} is outside [approval.filesystem] read` };
    }
  }
  return undefined;
}

/**
 * Writes by the agent's file tools (edit_file, write_file): a filesystem deny glob of any
 * layer refuses them; otherwise a write glob covering the path lets them go without asking
 * (the gate still asks outside the pane's cwd). A broken file asks. Undefined when no layer
 * speaks of the path.
 */
export function policyFileWrite(layers: readonly PolicyLayer[], path: string, context: GlobContext): PolicyVerdict | undefined {
  let broken: PolicyVerdict | undefined;
  let allowed: PolicyVerdict | undefined;
  for (const layer of layers) {
    if (layer.error || !layer.policy) {
      broken ??= { decision: 'ask', rule: `policy ${layer.error ?? `${layer.file} is unusable`}` };
      continue;
    }
    const filesystem = layer.policy.approval?.filesystem;
    const where = source(layer, context);
    const denied = matchingGlob(filesystem?.deny, path, context);
    if (denied) return { decision: 'deny', rule: `${where}: [approval.filesystem] deny "${denied}"` };
    const written = matchingGlob(filesystem?.write, path, context);
    if (written) allowed ??= { decision: 'allow', rule: `${where}: [approval.filesystem] write "${written}"` };
  }
  return broken ?? allowed;
}

function source(layer: PolicyLayer, context: { home: string }): string {
  const file = context.home && layer.file.startsWith(`${context.home}/`) ? `~${layer.file.slice(context.home.length)}` : layer.file;
  return `policy ${file}`;
}
