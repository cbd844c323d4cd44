/**
 * The rules of the command risk classifier (see commandRisk.ts for the walk that applies them).
 *
 * A rule sees one command as an `Invocation` (its name and arguments as parsed words, and what
 * it reads on stdin) and raises levels with reasons on a `Verdict`. Rules never lower a level:
 * everything starts GREEN and only goes up, and whatever a rule cannot know (an expansion, an
 * unknown option, a path known only at run time) must push it up, never down.
 *
 * Files: verdict, rule, pathContext (core types) · arguments (options) · pathPatterns, wordPaths, pathChecks
 * (paths) · readOnly · shellBuiltins · one file per command family · ruleTable (name → rule) · here, `ruleFor`.
 */
import { INTERPRETERS, interpreterName, interpreterRule } from './interpreters';
import { READ_ONLY, readOnlyRule } from './readOnly';
import type { Rule } from './rule';
import { RULES } from './ruleTable';
import { SHELLS, shellRule } from './shells';
import { diskRule } from './system';

/** The rule for a command name, or undefined for an unknown command. */
export function ruleFor(name: string): Rule | undefined {
  if (Object.hasOwn(RULES, name)) return RULES[name];
  const alias = interpreterName(name);
  if (alias !== name && Object.hasOwn(RULES, alias)) return RULES[alias];
  if (READ_ONLY.has(name)) return readOnlyRule;
  if (/^mkfs(\.\w+)?$/.test(name) || /^mkfs\w*$/.test(name)) return diskRule;
  if (SHELLS.has(name)) return shellRule;
  if (Object.hasOwn(INTERPRETERS, alias)) return interpreterRule;
  return undefined;
}
