import type { ClassifiedPart } from '../riskTypes';
import { partHosts } from '../policy/commandFacts';

/**
 * Tools whose first words choose what they do (`git push` is not `git log`): those words are
 * part of a command's shape.
 */
const SUBCOMMAND_TOOLS: ReadonlySet<string> = new Set([
  'git', 'npm', 'pnpm', 'yarn', 'bun', 'deno', 'docker', 'podman', 'kubectl', 'helm', 'cargo', 'go', 'pip', 'pip3', 'poetry', 'uv', 'apt',
  'apt-get', 'brew', 'dnf', 'yum', 'pacman', 'systemctl', 'gh', 'glab', 'terraform', 'aws', 'gcloud', 'az', 'make', 'just', 'mvn', 'gradle',
  'dotnet', 'rustup', 'nvm', 'conda', 'composer', 'bundle', 'rake', 'rails', 'mix', 'stack', 'cabal', 'ollama', 'firebase', 'vercel', 'fly', 'heroku',
]);
const INTERPRETERS: ReadonlySet<string> = new Set([
  'python', 'python2', 'python3', 'node', 'deno', 'bun', 'ruby', 'perl', 'php', 'lua', 'Rscript', 'bash', 'sh', 'zsh', 'fish', 'dash', 'ksh', 'tsx', 'ts-node', 'osascript', 'pwsh',
]);
const SUBCOMMAND_WORD = /^[a-z][a-z0-9:_-]*$/;
const SUBCOMMAND_DEPTH = 2;

/**
 * The shape of a command, which "Allow for this session" grants: each part's program, its
 * subcommand words (or an interpreter's script), its flags (normalised and sorted), the hosts
 * a network command reaches and the paths it writes. Arguments
 * may differ (`ls -la /var` has the shape of `ls -la /tmp`) but a command that writes must
 * write the same paths, and different flags or subcommands are a different shape
 * (`ls -R`, `git push`).
 */
export function commandShape(parts: readonly ClassifiedPart[]): string {
  return parts
    .filter((part) => part.command !== '')
    .map((part) => {
      const words = [part.command, ...subcommandOf(part), ...scriptOf(part), ...[...part.flags].sort()];
      const hosts = partHosts(part);
      if (hosts) words.push('@', ...(hosts.length > 0 ? [...hosts].sort() : ['(host unknown)']));
      if (part.writes.length > 0) words.push('→', ...[...part.writes].sort());
      return words.join(' ');
    })
    .join(' ; ');
}

/** `python3 a.py` is not `python3 b.py`: an interpreter's script is part of its shape. */
function scriptOf(part: ClassifiedPart): string[] {
  if (!INTERPRETERS.has(part.command)) return [];
  const script = part.words.slice(1).find((word) => !word.startsWith('-'));
  return script ? [script] : [];
}

function subcommandOf(part: ClassifiedPart): string[] {
  if (!SUBCOMMAND_TOOLS.has(part.command)) return [];
  const args = part.words.slice(1);
  const operands = args.filter((word) => !word.startsWith('-'));
  // Options before the subcommand (`git -C repo push`, `npm --prefix dir publish`) may take values, so which
  // word is the subcommand cannot be told: every operand is then part of the shape.
  if (operands.length > 0 && args[0]?.startsWith('-')) return operands;
  const subcommand: string[] = [];
  for (const word of operands) {
    if (subcommand.length >= SUBCOMMAND_DEPTH || !SUBCOMMAND_WORD.test(word)) break;
    subcommand.push(word);
  }
  return subcommand;
}
