/** Rules for text tools that are read-only unless told otherwise: tee, sed, awk, sort, uniq … */
import { literalArg, parseOptions, shown, type OptionSpec, type ParsedOptions } from './arguments';
import { judgeCodeCommands } from './inlineCode';
import { checkPath } from './pathChecks';
import type { Rule, RuleEnv } from './rule';
import type { Verdict } from './verdict';

export const teeRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, { short: { a: 'append', i: 'ignore-interrupts', p: 'p' }, long: { append: 'append', 'ignore-interrupts': 'ignore-interrupts', 'output-error': 'output-error' } });
  out.addFlags(o.display);
  for (const operand of o.operands) checkPath(operand, 'write', out, env.paths);
  out.green('tee only copies its input to its output');
};

/** What a sed script does besides printing: files it writes (`w`, `s///w`) and commands it runs (`e`, `s///e`). */
export function analyzeSed(script: string): { writes: string[]; commands: string[]; executes: boolean; unsure: boolean } {
  const writes: string[] = [];
  const commands: string[] = [];
  let executes = false;
  let i = 0;
  const n = script.length;
  const at = (k: number): string => script[k] ?? '';
  const skipBlanks = (): void => {
    while (i < n && (at(i) === ' ' || at(i) === '\t')) i++;
  };
  const toLineEnd = (): string => {
    const start = i;
    while (i < n && at(i) !== '\n') i++;
    return script.slice(start, i);
  };
  const skipDelimited = (d: string): void => {
    while (i < n && at(i) !== d) i += at(i) === '\\' ? 2 : 1;
    i++;
  };
  const address = (): void => {
    skipBlanks();
    if (at(i) === '/') {
      i++;
      skipDelimited('/');
    } else if (at(i) === '\\') {
      const d = at(i + 1);
      i += 2;
      skipDelimited(d);
    } else while (i < n && /[0-9$~]/.test(at(i))) i++;
    while (i < n && /[IM]/.test(at(i))) i++;
  };
  while (i < n) {
    skipBlanks();
    const c = at(i);
    if (c === '\n' || c === ';' || c === '{' || c === '}') {
      i++;
      continue;
    }
    if (c === '#') {
      toLineEnd();
      continue;
    }
    address();
    skipBlanks();
    if (at(i) === ',') {
      i++;
      skipBlanks();
      if (at(i) === '+' || at(i) === '~') {
        i++;
        while (i < n && /\d/.test(at(i))) i++;
      } else address();
    }
    skipBlanks();
    if (at(i) === '!') {
      i++;
      skipBlanks();
    }
    const command = at(i++);
    switch (command) {
      case '':
      case '{':
      case '}':
      case ';':
      case '\n':
        break;
      case 's': {
        const d = at(i++);
        skipDelimited(d);
        skipDelimited(d);
        while (i < n && /[gpiImMe0-9]/.test(at(i))) if (at(i++) === 'e') executes = true;
        if (at(i) === 'w') {
          i++;
          skipBlanks();
          writes.push(toLineEnd().trim());
        }
        break;
      }
      case 'y': {
        const d = at(i++);
        skipDelimited(d);
        skipDelimited(d);
        break;
      }
      case 'a':
      case 'i':
      case 'c':
      case 'r':
      case 'R':
        toLineEnd();
        break;
      case 'w':
      case 'W':
        skipBlanks();
        writes.push(toLineEnd().trim());
        break;
      case 'e': {
        executes = true;
        skipBlanks();
        const cmd = toLineEnd().trim();
        if (cmd) commands.push(cmd);
        break;
      }
      case ':':
      case 'b':
      case 't':
      case 'T':
      case 'v':
        while (i < n && at(i) !== ';' && at(i) !== '\n') i++;
        break;
      case 'q':
      case 'Q':
      case 'l':
      case 'L':
        skipBlanks();
        while (i < n && /\d/.test(at(i))) i++;
        break;
      default:
        if ('=dDgGhHnNpPxzF'.includes(command)) break;
        return { writes, commands, executes, unsure: true };
    }
  }
  return { writes, commands, executes, unsure: false };
}

const SED_SPEC: OptionSpec = {
  short: { n: 'quiet', e: 'expression', f: 'file', i: 'in-place', E: 'regexp-extended', r: 'regexp-extended', s: 'separate', z: 'null-data', u: 'unbuffered', l: 'line-length' },
  long: { quiet: 'quiet', silent: 'quiet', expression: 'expression', file: 'file', 'in-place': 'in-place', 'regexp-extended': 'regexp-extended', separate: 'separate', 'null-data': 'null-data', 'zero-terminated': 'null-data', sandbox: 'sandbox', debug: 'debug', posix: 'posix', 'follow-symlinks': 'follow-symlinks', 'line-length': 'line-length', unbuffered: 'unbuffered' },
  shortValue: 'efl',
  shortOptionalValue: 'i',
  longValue: ['expression', 'file', 'line-length'],
};

export const sedRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, SED_SPEC);
  out.addFlags(o.display);
  let operands = o.operands;
  const inPlace = o.has('in-place');
  if (inPlace && !o.value('in-place') && operands[0]?.value === '') operands = operands.slice(1); // BSD `sed -i '' …`
  const scripts = [...(o.values.get('expression') ?? [])];
  if (o.has('file')) out.yellow('sed runs a script file Tandem cannot see');
  if (scripts.length === 0 && !o.has('file') && operands[0]) {
    scripts.push(operands[0]);
    operands = operands.slice(1);
  }
  for (const script of scripts) {
    if (script.value === undefined) {
      out.yellow('the sed script is known only at run time');
      continue;
    }
    const found = analyzeSed(script.value);
    if (found.unsure) out.yellow('the sed script has commands Tandem cannot read');
    if (o.has('sandbox')) continue;
    if (found.executes) out.yellow('the sed script runs shell commands');
    for (const command of found.commands) env.nestedSource(command, 'sed e');
    for (const file of found.writes) checkPath(literalArg(file), 'write', out, env.paths);
  }
  if (inPlace) {
    for (const file of operands) checkPath(file, 'write', out, env.paths);
    out.yellow(`sed -i edits ${operands.map(shown).join(', ') || 'files'} in place`);
  }
  out.green('sed only prints');
};

const AWK_SPEC: OptionSpec = {
  short: { F: 'field-separator', v: 'assign', f: 'file', i: 'include', E: 'exec', e: 'source' },
  long: { 'field-separator': 'field-separator', assign: 'assign', file: 'file', include: 'include', exec: 'exec', source: 'source', sandbox: 'sandbox' },
  shortValue: 'FvfiEeWl',
  longValue: ['field-separator', 'assign', 'file', 'include', 'exec', 'source', 'load'],
};

export const awkRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, AWK_SPEC);
  out.addFlags(o.display);
  const programs = [...(o.values.get('source') ?? [])];
  let files = o.operands;
  if (o.has('file', 'exec')) out.yellow(`${inv.name} runs a program file Tandem cannot see`);
  else if (programs.length === 0 && files[0]) {
    programs.push(files[0]);
    files = files.slice(1);
  }
  if ((o.values.get('include') ?? []).some((a) => a.value === 'inplace')) {
    for (const file of files) checkPath(file, 'write', out, env.paths);
    out.yellow(`${inv.name} -i inplace edits files in place`);
  }
  for (const program of programs) {
    const text = program.value;
    if (text === undefined) {
      out.yellow(`the ${inv.name} program is known only at run time`);
      continue;
    }
    if (o.has('sandbox')) continue;
    const runs = judgeCodeCommands(text, 'awk', `${inv.name} system()`, env);
    if (runs) out.yellow(runs);
    if (/(^|[^|])\|(?!\|)/.test(text)) out.yellow(`the ${inv.name} program pipes to or from shell commands`);
    for (const m of text.matchAll(/\bprintf?\b[^;}\n]*?>>?\s*("([^"]*)"|[^\s;}]+)/g)) {
      if (m[2] !== undefined) checkPath(literalArg(m[2]), 'write', out, env.paths);
      else out.yellow(`the ${inv.name} program writes to a file named at run time`);
    }
  }
  out.green(`${inv.name} only prints`);
};

/** Read-only unless an option names an output file. */
const outputOptionRule =
  (spec: OptionSpec, outputs: string[], extra?: (o: ParsedOptions, out: Verdict, env: RuleEnv) => void): Rule =>
  (inv, out, env) => {
    const o = parseOptions(inv.args, spec);
    out.addFlags(o.display);
    for (const name of outputs) for (const file of o.values.get(name) ?? []) checkPath(file, 'write', out, env.paths);
    extra?.(o, out, env);
    out.green(`${inv.name} only prints`);
  };

export const sortRule = outputOptionRule(
  { short: { o: 'output', k: 'key', t: 'field-separator', T: 'temporary-directory', S: 'buffer-size' }, shortValue: 'koTtS', long: { output: 'output', key: 'key', 'field-separator': 'field-separator', 'temporary-directory': 'temporary-directory', 'buffer-size': 'buffer-size', 'compress-program': 'compress-program', 'files0-from': 'files0-from' }, longValue: ['output', 'key', 'field-separator', 'temporary-directory', 'buffer-size', 'files0-from', 'compress-program', 'parallel', 'random-source', 'sort'] },
  ['output'],
  (o, out) => {
    if (o.has('compress-program')) out.yellow('sort --compress-program runs a program');
  },
);
export const uniqRule = outputOptionRule({ shortValue: 'fsw', longValue: ['skip-fields', 'skip-chars', 'check-chars'] }, [], (o, out, env) => {
  const output = o.operands[1];
  if (output) checkPath(output, 'write', out, env.paths);
});
export const xxdRule = outputOptionRule({ shortValue: 'cglosnC' }, [], (o, out, env) => {
  const output = o.operands[1];
  if (output) checkPath(output, 'write', out, env.paths);
});
export const iconvRule = outputOptionRule({ short: { o: 'output', f: 'from-code', t: 'to-code' }, shortValue: 'fto', long: { output: 'output', 'from-code': 'from-code', 'to-code': 'to-code' }, longValue: ['output', 'from-code', 'to-code'] }, ['output']);
export const base64Rule = outputOptionRule({ short: { o: 'output', i: 'input' }, shortValue: 'iobw', long: { output: 'output', input: 'input' }, longValue: ['output', 'input', 'wrap', 'break'] }, ['output']);
export const yqRule = outputOptionRule({ short: { i: 'inplace' }, long: { inplace: 'inplace' } }, [], (o, out, env) => {
  if (!o.has('inplace')) return;
  for (const file of o.operands.slice(1)) checkPath(file, 'write', out, env.paths);
  out.yellow('yq -i edits files in place');
});
