/**
 * `cd dir && rm -rf *`: later relative paths may be relative to dir. Each literal `cd`/`pushd`
 * adds its directory to the ones relative paths are resolved against; one known only at run
 * time (or `cd -`) makes them possibly anywhere.
 */
import type { Arg } from './rules/arguments';
import { unescapeGlob } from './rules/pathPatterns';
import type { PathContext } from './rules/pathContext';
import { resolveWord } from './rules/wordPaths';

/** Directories relative paths may be resolved against, kept at most (the cwd included). */
const MAX_CWDS = 16;

export function trackCd(name: string, args: Arg[], paths: PathContext): void {
  if (name !== 'cd' && name !== 'pushd') return;
  const operand = args.find((a) => a.value === undefined || !/^-[LPe@]*$/.test(a.value) || a.value === '-');
  if (!operand) {
    addCwd(paths.home, paths);
    return;
  }
  if (operand.value === '-') {
    paths.cwdUnknown = true;
    return;
  }
  const resolved = resolveWord(operand.word, paths);
  if (resolved.unknown || resolved.known.length === 0) paths.cwdUnknown = true;
  for (const dir of resolved.known) addCwd(unescapeGlob(dir), paths);
}

function addCwd(dir: string, paths: PathContext): void {
  if (!paths.cwds.includes(dir) && paths.cwds.length < MAX_CWDS) paths.cwds.push(dir);
}
