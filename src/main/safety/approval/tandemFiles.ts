import type { RiskResult } from '../riskTypes';
import { patternCovers, patternWithin } from '../rules/pathPatterns';

/**
 * Whether a command would change Tandem's own files (config, policy, hooks, keys, audit log):
 * the parse says it writes there, or — for anything that is not read-only — its text names one
 * of those places in any spelling (`~/…`, `$HOME/…`, the absolute path, or the folder names),
 * since an interpreter (`python -c "open(…, 'w')"`) can write where the parse cannot see.
 * Returns the place, or undefined.
 */
export function tandemFileWrite(command: string, risk: RiskResult, tandemPaths: readonly string[], home: string, cwd?: string): string | undefined {
  for (const part of risk.parts) {
    const hit = part.protectedHits.find((path) => tandemPaths.some((own) => path === own || path.startsWith(`${own}/`) || own.startsWith(`${path}/`)));
    if (hit) return shortPath(hit, home);
    // Every path the part writes, too: the parse records only the first protected path a write
    // reaches (`rm -rf ~/.config` hits ~/.config/fish first) and none for a catastrophe (`rm -rf *`
    // inside a Tandem folder). A folder above Tandem's (`tar -xf x.tar -C ~/.config`) counts, the home
    // directory and above do not (those are RED anyway).
    for (const written of part.writes) {
      const path = written.replace(/^~(?=\/|$)/, home);
      if (!path.startsWith('/')) continue;
      const own = tandemPaths.find((own) => patternWithin(path, own) || (patternCovers(path, own) && !patternCovers(path, home)));
      if (own) return shortPath(own, home);
    }
  }
  if (risk.level === 'green') return undefined;
  // Anything but a read-only command, run inside Tandem's folders (`python3 -c "open('policy.toml', 'w')"`).
  const inside = cwd ? tandemPaths.find((own) => cwd === own || cwd.startsWith(`${own}/`)) : undefined;
  if (inside) return shortPath(inside, home);
  for (const own of tandemPaths) {
    for (const spelling of spellings(own, home)) {
      if (command.includes(spelling)) return shortPath(own, home);
    }
  }
  // `$XDG_CONFIG_HOME/tandem`, `${XDG_DATA_HOME:-$HOME/.local/share}/tandem`, `~/.config//tandem`: the folders by another name.
  const spelled = XDG_SPELLING.exec(command);
  if (spelled) return spelled[0];
  return undefined;
}

const XDG_SPELLING = /(?:XDG_(?:CONFIG|DATA|STATE)_HOME|\.config|\.local\/share|\.local\/state)[^\s/'"]*(?:\/\.?)+tandem(?![\w-])/;

function spellings(path: string, home: string): string[] {
  const found = [path];
  if (home && path.startsWith(`${home}/`)) {
    const rest = path.slice(home.length + 1);
    found.push(`~/${rest}`, `$HOME/${rest}`, `\${HOME}/${rest}`);
    // `.config/tandem`, `.local/share/tandem`: enough to recognise with any prefix (`cd ~ && … .config/tandem/…`).
    if (rest.startsWith('.')) found.push(rest);
  }
  return found;
}

function shortPath(path: string, home: string): string {
  return home && path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}
