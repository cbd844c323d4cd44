/** Arguments as the rules see them, and option parsing. */
import { literalValue, type Word } from '../shellParser';
import type { PathContext } from './pathContext';

/** One argument: the parsed word, its source text, and its value when it is fully known before run time. */
export interface Arg {
  word: Word;
  text: string;
  value: string | undefined;
  /** Known not to be an option even though its value is unknown (`{}` of find -exec is always a path). */
  notOption?: boolean;
}

export function toArg(word: Word): Arg {
  return { word, text: word.text, value: literalValue(word) };
}

/** An argument whose value is known (synthesised by a rule: a split string, a `key=value` half …). */
export function literalArg(value: string, quoted = true): Arg {
  return { word: { text: value, parts: [{ type: 'literal', value, quoted }] }, text: value, value };
}

/** An argument nothing is known about (`{}` of find -exec, the items xargs appends …). */
export function unknownArg(text: string, notOption = false): Arg {
  return { word: { text, parts: [{ type: 'unknown', text, quoted: true }] }, text, value: undefined, notOption };
}

// Options: `rm -rf` = `rm -fr` = `rm -r -f` = `rm --recursive --force` = `rm --rec --for`

export interface OptionSpec {
  /** Short letters → canonical names (letters not listed come out as `-x`). */
  short?: Record<string, string>;
  /** Long names without dashes → canonical names. GNU-style unambiguous prefixes are accepted. */
  long?: Record<string, string>;
  /** Short letters whose option takes a value (`-o FILE`, `-oFILE`). */
  shortValue?: string;
  /** Short letters whose value may only be attached (`-i.bak` for sed). */
  shortOptionalValue?: string;
  /** Canonical names of long options that take a value (`--output FILE`, `--output=FILE`). */
  longValue?: readonly string[];
  /** Options end at the first operand (POSIX getopt; wrappers such as sudo, env, xargs, ssh). */
  stopAtOperand?: boolean;
  /** `+x` is an option too (shells). */
  plusOptions?: boolean;
}

export interface ParsedOptions {
  /** Canonical names of every option present. */
  flags: Set<string>;
  /** Values of options that take one, by canonical name, in order. */
  values: Map<string, Arg[]>;
  /** Operands (with `stopAtOperand`, everything from the first operand on). */
  operands: Arg[];
  /** An argument before `--` is not known before run time: it could be any option. */
  maybeAnyOption: boolean;
  /** The options as written, normalised for display (`-r`, `--force`). */
  display: string[];
  has(...names: string[]): boolean;
  value(name: string): Arg | undefined;
}

/** Canonical option name → display form. */
function displayOption(name: string): string {
  if (name.startsWith('-') || name.startsWith('+')) return name;
  return name.length === 1 ? `-${name}` : `--${name}`;
}

function resolveLong(name: string, spec: OptionSpec): string {
  const long = spec.long ?? {};
  if (Object.hasOwn(long, name)) return long[name] as string;
  const matches = Object.keys(long).filter((k) => k.startsWith(name));
  const targets = new Set(matches.map((k) => long[k]));
  if (matches.length > 0 && targets.size === 1) return long[matches[0] as string] as string;
  return `--${name}`;
}

export function parseOptions(args: readonly Arg[], spec: OptionSpec = {}): ParsedOptions {
  const flags = new Set<string>();
  const values = new Map<string, Arg[]>();
  const operands: Arg[] = [];
  const display: string[] = [];
  let maybeAnyOption = false;
  const add = (name: string, value?: Arg): void => {
    flags.add(name);
    const shown = displayOption(name);
    if (!display.includes(shown)) display.push(shown);
    if (value) values.set(name, [...(values.get(name) ?? []), value]);
  };
  const shortValue = spec.shortValue ?? '';
  const shortOptional = spec.shortOptionalValue ?? '';
  const longValue = new Set(spec.longValue ?? []);

  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i] as Arg;
    const v = arg.value;
    if (v === undefined) {
      // `rm $OPTS /`: the expansion may well be `-rf`.
      const first = arg.word.parts[0];
      const startsLiteral = first?.type === 'literal' && first.value !== '' && !first.value.startsWith('-');
      if (!startsLiteral && !arg.notOption) maybeAnyOption = true;
      operands.push(arg);
      if (spec.stopAtOperand) {
        i++;
        break;
      }
      continue;
    }
    if (v === '--') {
      i++;
      break;
    }
    if (v.startsWith('--') && v.length > 2) {
      const eq = v.indexOf('=');
      const rawName = eq >= 0 ? v.slice(2, eq) : v.slice(2);
      const name = resolveLong(rawName, spec);
      if (eq >= 0) add(name, literalArg(v.slice(eq + 1)));
      else if (longValue.has(name) && i + 1 < args.length) add(name, args[++i]);
      else add(name);
      continue;
    }
    if ((v.startsWith('-') || (spec.plusOptions && v.startsWith('+'))) && v.length > 1) {
      const sign = v[0] as string;
      for (let j = 1; j < v.length; j++) {
        const letter = v[j] as string;
        const name = sign === '+' ? `+${letter}` : (spec.short?.[letter] ?? `-${letter}`);
        if (shortValue.includes(letter)) {
          const rest = v.slice(j + 1);
          if (rest) add(name, literalArg(rest));
          else if (i + 1 < args.length) add(name, args[++i]);
          else add(name);
          break;
        }
        if (shortOptional.includes(letter)) {
          const rest = v.slice(j + 1);
          add(name, rest ? literalArg(rest) : undefined);
          break;
        }
        add(name);
      }
      continue;
    }
    operands.push(arg);
    if (spec.stopAtOperand) {
      i++;
      break;
    }
  }
  operands.push(...args.slice(i));
  return {
    flags,
    values,
    operands,
    maybeAnyOption,
    display,
    has: (...names) => names.some((n) => flags.has(n)),
    value: (name) => {
      const list = values.get(name);
      return list?.[list.length - 1];
    },
  };
}

/** The name of an argument for messages: its value, or its source text. */
export function shown(arg: Arg): string {
  return arg.value ?? arg.text;
}

/** Joins the words of a command back into shell source (for `ssh host cmd…`, `watch cmd…`, `eval a b`). */
export function joinSource(args: readonly Arg[]): string {
  return args.map((a) => a.text).join(' ');
}

/**
 * The shell text an argument stands for once the outer shell has removed its quotes
 * (`ssh host 'rm -rf /'`), with `$( )` whose output is known replaced by it
 * (`sh -c "$(printf 'rm -rf /')"`); other expansions stay as written.
 */
export function shellText(arg: Arg, paths?: PathContext): string {
  if (arg.value !== undefined) return arg.value;
  return arg.word.parts
    .map((p) => {
      if (p.type === 'literal') return p.value;
      if (p.type === 'substitution' && p.kind === 'command') return paths?.staticOutput?.(p.body) ?? p.text;
      return p.text;
    })
    .join('');
}

/** The argument with its first `n` characters (a literal `of=` …) removed. */
export function dropPrefix(arg: Arg, n: number): Arg {
  const parts = [...arg.word.parts];
  const first = parts[0];
  if (first?.type === 'literal') {
    if (first.value.length > n) parts[0] = { ...first, value: first.value.slice(n) };
    else parts.shift();
  }
  const text = arg.text.slice(n);
  return { word: { text, parts }, text, value: arg.value?.slice(n) };
}
