/** Rules for editors and openers. */
import { parseOptions, shown } from './arguments';
import { checkPath } from './pathChecks';
import type { Rule } from './rule';

export const editorRule: Rule = (inv, out, env) => {
  const files = parseOptions(inv.args, { shortValue: 'cSuiTtw', stopAtOperand: false }).operands.filter((a) => !(a.value ?? '').startsWith('+'));
  const otherwise = `${inv.name} opens ${files.map(shown).join(' ') || 'an editor'}, and can change it`;
  for (const file of files) checkPath(file, 'write', out, env.paths, { otherwise });
  out.yellow(otherwise);
};

export const openRule: Rule = (inv, out) => out.yellow(`${inv.name} opens ${inv.args.map(shown).join(' ') || 'something'} in another application`);
