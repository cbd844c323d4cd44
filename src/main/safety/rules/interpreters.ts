/** Rules for interpreters: python -c, node -e, perl -e … */
import { literalArg, shellText, type Arg } from './arguments';
import type { Rule } from './rule';
import { RULES } from './ruleTable';
import { runsStdin } from './shells';
import { judgeCodeCommands, type CodeLanguage } from './inlineCode';

/** Interpreters with inline-code options (`python -c`, `node -e` …). Values: the inline-code options. */
export const INTERPRETERS: Readonly<Record<string, { inline: string[]; label: string }>> = {
  python: { inline: ['-c'], label: 'Python' },
  perl: { inline: ['-e', '-E'], label: 'Perl' },
  ruby: { inline: ['-e'], label: 'Ruby' },
  node: { inline: ['-e', '--eval', '-p', '--print'], label: 'JavaScript' },
  nodejs: { inline: ['-e', '--eval', '-p', '--print'], label: 'JavaScript' },
  deno: { inline: ['eval'], label: 'JavaScript' },
  bun: { inline: ['-e', '--eval', '-p', '--print'], label: 'JavaScript' },
  php: { inline: ['-r'], label: 'PHP' },
  lua: { inline: ['-e'], label: 'Lua' },
  osascript: { inline: ['-e'], label: 'AppleScript' },
  Rscript: { inline: ['-e'], label: 'R' },
  pwsh: { inline: ['-c', '-Command', '-command'], label: 'PowerShell' },
  powershell: { inline: ['-c', '-Command', '-command'], label: 'PowerShell' },
  tclsh: { inline: [], label: 'Tcl' },
  groovy: { inline: ['-e'], label: 'Groovy' },
};

const LANGUAGES: Readonly<Record<string, CodeLanguage>> = { python: 'python', perl: 'perl', ruby: 'ruby', node: 'javascript', nodejs: 'javascript', deno: 'javascript', bun: 'javascript', php: 'php', lua: 'lua', Rscript: 'r', osascript: 'applescript' };

/** `python3.12` → `python`, for the interpreter table. */
export function interpreterName(name: string): string {
  if (/^python[\d.]*$/.test(name) || name === 'pypy' || name === 'pypy3') return 'python';
  if (/^perl[\d.]*$/.test(name)) return 'perl';
  if (/^ruby[\d.]*$/.test(name)) return 'ruby';
  if (/^php[\d.]*$/.test(name)) return 'php';
  if (/^lua[\d.]*$/.test(name) || name === 'luajit') return 'lua';
  return name;
}

/** python -c, node -e, perl -e …: at least YELLOW; shell commands in string literals are classified too. */
export const interpreterRule: Rule = (inv, out, env) => {
  const kind = interpreterName(inv.name);
  const spec = INTERPRETERS[kind];
  if (!spec) return out.yellow(`${inv.name} runs code`);
  const args = inv.args;
  for (let i = 0; i < args.length; i++) {
    const v = args[i]?.value;
    if (v === undefined) {
      if (env.fetchesCode((args[i] as Arg).word)) return out.red(`${inv.name} runs a script downloaded from the network`);
      return out.yellow(`${inv.name} runs code known only at run time`);
    }
    const inline = spec.inline.includes(v) || ((kind === 'perl' || kind === 'ruby') && /^-[a-zA-Z]*[eE]$/.test(v));
    if (inline) {
      const code = args[i + 1];
      if (code && env.fetchesCode(code.word)) out.red(`${inv.name} runs code downloaded from the network`);
      const text = code ? shellText(code) : '';
      if (code && code.value === undefined) env.unjudgedCode(`${inv.name} ${v}`, code.text, `${inv.name} ${v} runs code known only at run time`);
      const runs = judgeCodeCommands(text, LANGUAGES[kind] ?? 'other', `${inv.name} ${v}`, env);
      if (runs) out.yellow(runs);
      for (const m of text.matchAll(/\b(?:rmtree|rmSync|rm_rf|remove_dir_all)\s*\(\s*(["'])([^"']+)\1/g)) env.nestedArgv([literalArg('rm'), literalArg('-rf'), literalArg(m[2] as string)], `${inv.name} inline code`);
      if (kind === 'perl' && /^-[a-zA-Z]*i/.test(v)) out.yellow('perl -i edits files in place');
      return out.yellow(`${inv.name} runs inline ${spec.label} code`);
    }
    if (kind === 'python' && v === '-m') {
      const module = args[i + 1]?.value;
      if ((module === 'pip' || module === 'pip3') && RULES.pip) return RULES.pip({ name: 'pip', args: args.slice(i + 2), stdin: inv.stdin }, out, env);
      return out.yellow(`${inv.name} -m runs the module ${module ?? ''}`.trimEnd());
    }
    if (v === '-' || !v.startsWith('-')) {
      if (v === '-') return runsStdin(inv, out, env, inv.name, false);
      if (env.fetchesCode((args[i] as Arg).word)) return out.red(`${inv.name} runs a script downloaded from the network`);
      return out.yellow(`${inv.name} runs the script ${v}`);
    }
    if (kind === 'python' && /^-[WXQ]$/.test(v)) i++;
    if ((kind === 'node' || kind === 'nodejs') && /^(-r|--require|--import|--loader|--input-type)$/.test(v)) i++;
  }
  runsStdin(inv, out, env, inv.name, false);
};
