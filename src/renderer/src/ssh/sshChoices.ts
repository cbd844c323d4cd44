import type { SshHost } from '../../../shared/ssh';
import { destinationProblem } from '../../../shared/sshDestination';
import { fuzzyScore } from '../actions/fuzzyMatch';

/** A line of the picker: a host of the config, or what was typed when it names none of them. */
export interface SshChoice {
  destination: string;
  /** user@hostname:port, dimmed beside the alias; for a typed destination, why it cannot be used. */
  detail: string;
  typed: boolean;
  /** Why it cannot be chosen (a typed text that is not a destination). */
  problem?: string;
}

/** `user@hostname:port` with what the config gives; empty when it gives none of them. */
export function hostDetail(host: SshHost): string {
  if (!host.hostName && !host.user && host.port === undefined) return '';
  return `${host.user ? `${host.user}@` : ''}${host.hostName ?? host.alias}${host.port !== undefined ? `:${host.port}` : ''}`;
}

/** The hosts matching `query` (best first when there is one), then `ssh <query>` unless it is one of them. */
export function sshChoices(hosts: readonly SshHost[], query: string): SshChoice[] {
  const typed = query.trim();
  const matches: { choice: SshChoice; score: number }[] = [];
  for (const host of hosts) {
    const detail = hostDetail(host);
    const score = fuzzyScore(typed, `${host.alias} ${detail}`);
    if (score !== undefined) matches.push({ choice: { destination: host.alias, detail, typed: false }, score });
  }
  if (typed) matches.sort((a, b) => b.score - a.score);
  const choices = matches.map((match) => match.choice);
  if (typed && !hosts.some((host) => host.alias === typed)) {
    const problem = destinationProblem(typed);
    choices.push({ destination: typed, detail: problem ?? 'not in ~/.ssh/config', typed: true, problem });
  }
  return choices;
}
