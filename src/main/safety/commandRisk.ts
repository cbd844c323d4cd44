/**
 * Command risk levels from a real bash parse (issue 4, "Risk levels from a real parse").
 *
 * GREEN: read-only. YELLOW: changes something, or unknown. RED: destructive or
 * privilege-raising. The command line is parsed with the tree-sitter bash grammar
 * (shellParser.ts); every simple command it contains — in lists, pipelines, subshells, `$( )`,
 * backticks, `<( )`, function bodies, and inside `sh -c`, `eval`, `sudo`, `xargs`, `find -exec`,
 * `env`, `ssh host …` and the like — becomes one part, classified by the rules in
 * rules/, and the worst part wins. Whatever the parse cannot see through (an
 * expansion as a command name, a parse error, nesting too deep, a command too long to parse in
 * time) is at least YELLOW.
 *
 * Decisions where the issue left a choice:
 * - curl/wget are YELLOW even to stdout: a request can carry data out (`curl …?k=$(cat key)`) and
 *   have effects on the other side. ping/dig/nslookup/host are GREEN only with literal arguments.
 * - A force push (`-f`, `--force`, `--force-with-lease`, `+refspec`, `--mirror`) to main/master
 *   (also trunk, production, prod, release) is RED, and so is one that does not name its branch
 *   (`git push -f`, `git push -f origin`, `… HEAD`): the current branch cannot be known from the
 *   command, and it may be main. Naming a feature branch makes it YELLOW.
 * - git reset --hard, clean -f, checkout -- ., restore ., stash drop/clear, branch -D: YELLOW with
 *   a reason saying what is lost.
 * - history -c: YELLOW. crontab -r: RED (no confirmation, no undo). `:> /etc/…`, any write or
 *   delete under /etc, /usr (not /usr/local), /bin, /sbin, /lib*, /boot, /proc, /sys, /System,
 *   /Library, /var/lib, /var/db: RED.
 * - docker: prunes that include volumes (`system prune --volumes`, `volume prune`) are RED (volumes
 *   hold databases); `system prune -a` alone is YELLOW. `run --privileged`, host namespaces,
 *   `--cap-add=SYS_ADMIN|ALL`, raw devices, mounting `/`, a system directory or the docker socket: RED.
 * - rm -r (with or without -f) of `/`, `~`, the cwd, an ancestor of any of them, a system directory,
 *   a home directory, a protected path, or everything in one of those (`*`, `.*`, `/*`, `~/*`): RED,
 *   also when an unguarded expansion being empty would make it so (`rm -rf "$DIR/"*`).
 * - find -delete (or -exec rm …): RED from `/` or a system directory; without name/time/size tests
 *   it is `rm -r` of its start paths; with tests, YELLOW elsewhere.
 * - chmod/chown/chgrp -R on the same catastrophic targets, or on a protected path: RED.
 * - Defining a shell function or alias, setting shell variables: YELLOW (they change the session).
 * - A command name that is a path outside the system bin directories is never GREEN.
 *
 * Files: here, the entry · riskTypes (the types every module shares) · commandClassifier (the walk over the parse) ·
 * boundedParser (parse budget and deadline) · commandStreams (what flows between commands:
 * downloads, stdin, known output) · knownOutput (what echo/printf/base64… print) · shellVariables,
 * cdTracking, redirectWrites, forkBombs (one concern each) · classifiedParts, riskSummary (the
 * parts found and the result made of them) · rules/ (what each command is).
 */
import { CommandClassifier } from './commandClassifier';
import type { RiskContext, RiskResult } from './riskTypes';
import { getShellParser, type ShellParser } from './shellParser';

export type { ClassifiedPart, RiskContext, RiskLevel, RiskResult } from './riskTypes';

export async function classifyCommand(command: string, context: RiskContext): Promise<RiskResult> {
  return classifyWithParser(await getShellParser(), command, context);
}

/** The same, synchronously, with a parser already loaded (benchmarks, batch checks). */
export function classifyWithParser(parser: ShellParser, command: string, context: RiskContext): RiskResult {
  const classifier = new CommandClassifier(parser, context, command.length);
  classifier.source(command, 'the command');
  return classifier.result();
}
