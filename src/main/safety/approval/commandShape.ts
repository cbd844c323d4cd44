import type { ClassifiedPart } from '../commandRisk';

/**
 * Tools whose first words choose what they do (`git push` is not `git log`): those words are
 * part of a command's shape.
 */
const SUBCOMMAND_TOOLS: ReadonlySet<string> = new Set([
  'git', 'npm', 'pnpm', 'yarn', 'bun', 'deno', 'docker', 'podman', 'kubectl', 'helm', 'cargo', 'go', 'pip', 'pip3', 'poetry', 'uv', 'apt',
  'apt-get', 'brew', 'dnf', 'yum', 'pacman', 'systemctl', 'gh', 'glab', 'terraform', 'aws', 'gcloud', 'az', 'make', 'just', 'mvn', 'gradle',
  'dotnet', 'rustup', 'nvm', 'conda', 'composer', 'bundle', 'rake', 'rails', 'mix', 'stack', 'cabal', 'ollama', 'firebase', 'vercel', 'fly', 'heroku',
]);
const SUBCOMMAND_WORD = /^[a-z][a-z0-9:_-]*$/;
const SUBCOMMAND_DEPTH = 2;

/**
 * The shape of a command, which "Allow for this session" grants: each part's program, its
 * subcommand words, its flags (normalised and sorted) and the paths it writes. Arguments
 * may differ (`ls -la /var` has the shape of `ls -la /tmp`) but a command that writes must
 * write the same paths, and different flags or subcommands are a different shape
 * (`ls -R`, `git push`).
 */
export function commandShape(parts: readonly ClassifiedPart[]): string {
  return parts
    .filter((part) => part.command !== '')
    .map((part) => {
      const words = [part.command, ...subcommandOf(part), ...[...part.flags].sort()];
      if (part.writes.length > 0) words.push('→', ...[...part.writes].sort());
      return words.join(' ');
    })
    .join(' ; ');
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
