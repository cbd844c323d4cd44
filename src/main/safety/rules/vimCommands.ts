/**
 * What vim's Ex commands run (`vim -c '…'`, `+cmd`, `--cmd`, `ex` reading a script): `:!cmd`,
 * `:r !cmd`, `:w !cmd`, `:%!filter`, `:terminal cmd`, `:make`, `system()` in expressions, Lua,
 * Python, Ruby and Perl code, and the files they write. Commands Tandem does not know, scripts
 * (`:source`), autocommands and normal-mode keys that can reach the command line are unjudged:
 * they ask, whatever pattern allows the editor.
 */
import { readCodeLiteral } from './codeLiterals';
import type { CodeLanguage } from './inlineCode';

export interface ExFindings {
  /** Shell source run (`:!id` → `id`). */
  shell: string[];
  /** Code in another language (`:lua os.execute("id")`, `:call system("id")`). */
  code: { language: CodeLanguage; text: string }[];
  /** What cannot be judged, as written, with why. */
  unjudged: { written: string; why: string }[];
  /** Files written (`:w /etc/hosts`, `:redir > f`). */
  writes: string[];
}

/** `w[rite]`: the shortest abbreviation, then the rest of the name. */
type Spec = string;

const MODIFIERS: Spec[] = ['sil[ent]', 'uns[ilent]', 'keepj[umps]', 'keepp[atterns]', 'keepa[lt]', 'kee[pmarks]', 'loc[kmarks]', 'noa[utocmd]', 'verb[ose]', 'vert[ical]', 'tab', 'lefta[bove]', 'abo[veleft]', 'rightb[elow]', 'bel[owright]', 'to[pleft]', 'bo[tright]', 'conf[irm]', 'bro[wse]', 'hid[e]', 'windo', 'bufd[o]', 'tabd[o]', 'argdo', 'cdo', 'cfdo', 'ld[o]', 'lfdo', 'folddoc[losed]', 'foldd[oopen]'];
const SCRIPT_FILES: Spec[] = ['so[urce]', 'ru[ntime]', 'luaf[ile]', 'pyf[ile]', 'py3f[ile]', 'pyxf[ile]', 'rubyf[ile]', 'mzf[ile]', 'tclf[ile]'];
const CODE: [Spec, CodeLanguage][] = [
  ['lua', 'lua'], ['luad[o]', 'lua'], ['py[thon]', 'python'], ['py3', 'python'], ['python3', 'python'], ['pyx', 'python'], ['pythonx', 'python'], ['pyd[o]', 'python'], ['py3d[o]', 'python'],
  ['rub[y]', 'ruby'], ['rubyd[o]', 'ruby'], ['pe[rl]', 'perl'], ['perld[o]', 'perl'], ['tcl', 'other'], ['tcld[o]', 'other'], ['mz[scheme]', 'other'],
];
const EXPRESSIONS: Spec[] = ['cal[l]', 'let', 'ec[ho]', 'echom[sg]', 'echon', 'echoe[rr]', 'if', 'elsei[f]', 'wh[ile]', 'retu[rn]', 'cex[pr]', 'cgete[xpr]', 'cad[dexpr]', 'lex[pr]', 'lgete[xpr]', 'lad[dexpr]', 'unl[et]', 'const'];
const HARMLESS_CALLS = /^\s*(cursor|setline|append|setpos|search|deletebufline|setreg|histdel|clearmatches|matchadd)\s*\(/;
const WRITES: Spec[] = ['w[rite]', 'sav[eas]', 'wq', 'x[it]', 'exi[t]', 'up[date]', 'wa[ll]', 'wqa[ll]', 'xa[ll]', 'wn[ext]', 'wN[ext]', 'wp[revious]', 'f[ile]', 'mks[ession]', 'mkvie[w]', 'mkv[imrc]', 'wv[iminfo]', 'wsh[ada]'];
const HARMLESS: Spec[] = [
  'r[ead]', 'q[uit]', 'qa[ll]', 'quita[ll]', 'cq[uit]', 'clo[se]', 'on[ly]', 'e[dit]', 'ene[w]', 'vie[w]', 'sp[lit]', 'vs[plit]', 'new', 'vne[w]', 'sv[iew]', 'tabe[dit]', 'tabnew', 'tabn[ext]', 'tabp[revious]', 'tabc[lose]', 'tabo[nly]',
  'b[uffer]', 'bn[ext]', 'bp[revious]', 'bN[ext]', 'bd[elete]', 'bw[ipeout]', 'bf[irst]', 'bl[ast]', 'ls', 'files', 'buffers', 'n[ext]', 'N[ext]', 'prev[ious]', 'rew[ind]', 'fir[st]', 'la[st]', 'ar[gs]',
  'se[t]', 'setl[ocal]', 'setg[lobal]', 'setf[iletype]', 's[ubstitute]', '&', '&&', '~', 'd[elete]', 'y[ank]', 'pu[t]', 'm[ove]', 't', 'co[py]', 'j[oin]', '>', '<', '=', 'le[ft]', 'ri[ght]', 'ce[nter]', 'ret[ab]', 'sor[t]',
  'noh[lsearch]', 'sy[ntax]', 'filet[ype]', 'colo[rscheme]', 'hi[ghlight]', 'u[ndo]', 'red[o]', 'go[to]', 'ma[rk]', 'k', 'p[rint]', 'nu[mber]', '#', 'l[ist]', 'z', 'h[elp]', 've[rsion]', 'pw[d]', 'cd', 'lc[d]', 'tc[d]', 'chd[ir]', 'lch[dir]',
  'star[tinsert]', 'stopi[nsert]', 'redr[aw]', 'difft[his]', 'diffu[pdate]', 'diffo[ff]', 'diffg[et]', 'diffpu[t]', 'vim[grep]', 'lv[imgrep]', 'cope[n]', 'ccl[ose]', 'cn[ext]', 'cp[revious]', 'lope[n]', 'lcl[ose]', 'fo[ld]', 'foldo[pen]', 'foldc[lose]',
  'a[ppend]', 'i[nsert]', 'c[hange]', 'winc[md]', 'res[ize]', 'norm[al]', 'map', 'nm[ap]', 'vm[ap]', 'xm[ap]', 'im[ap]', 'cm[ap]', 'om[ap]', 'no[remap]', 'nn[oremap]', 'vn[oremap]', 'xn[oremap]', 'ino[remap]', 'cno[remap]', 'ono[remap]', 'ab[breviate]', 'fu[nction]', 'endf[unction]', 'en[dif]', 'el[se]', 'endw[hile]', 'scripte[ncoding]',
];

function matches(name: string, spec: Spec): boolean {
  const open = spec.indexOf('[');
  const required = open < 0 ? spec : spec.slice(0, open);
  const full = open < 0 ? spec : required + spec.slice(open + 1, -1);
  return name.startsWith(required) && full.startsWith(name);
}

const is = (name: string, specs: readonly Spec[]): boolean => specs.some((spec) => matches(name, spec));

/** The Ex commands of `text` (one per line, or separated by `|`). */
export function analyzeExCommands(text: string, found: ExFindings = { shell: [], code: [], unjudged: [], writes: [] }, depth = 0): ExFindings {
  if (depth > 8) {
    found.unjudged.push({ written: text, why: 'nests commands too deeply to follow' });
    return found;
  }
  for (const line of text.split(/\r?\n/)) {
    let rest = line;
    while (rest.trim() !== '') rest = command(rest, found, depth);
  }
  return found;
}

/** Reads one command from the start of `text`; returns what follows it on the line. */
function command(text: string, found: ExFindings, depth: number): string {
  const body = text.replace(/^[\s:]+/, '').replace(/^(?:[%.$]|\d+|'[a-zA-Z<>'[\]]|\/(?:\\.|[^/])*\/|\?(?:\\.|[^?])*\?|[+-]\d*|[,;])+\s*/, '');
  if (body === '' || body.startsWith('"')) return '';
  if (body.startsWith('!')) {
    const shell = body.slice(1);
    if (shell.trimStart().startsWith('!') || shell.trim() === '') found.unjudged.push({ written: `:${body}`, why: 'repeats an earlier shell command' });
    else found.shell.push(shell);
    return '';
  }
  const head = /^([a-zA-Z]+\d*|[&~<>=#@*]+)(!?)\s*/.exec(body);
  if (!head) {
    found.unjudged.push({ written: `:${body}`, why: 'is a vim command Tandem cannot read' });
    return '';
  }
  const name = head[1] as string;
  const bang = head[2] === '!';
  const afterName = body.slice(head[0].length);
  const [args, next] = splitBar(afterName);
  if (is(name, MODIFIERS)) {
    analyzeExCommands(afterName, found, depth + 1);
    return '';
  }
  if (matches(name, 'g[lobal]') || matches(name, 'v[global]')) {
    const delimiter = afterName[0] ?? '';
    const end = delimiter === '' ? -1 : afterName.indexOf(delimiter, 1);
    if (end > 0) analyzeExCommands(afterName.slice(end + 1), found, depth + 1);
    return '';
  }
  if ((matches(name, 'r[ead]') || (matches(name, 'w[rite]') && !bang)) && afterName.startsWith('!')) {
    found.shell.push(afterName.slice(1));
    return '';
  }
  if (matches(name, 'r[ead]') && bang) {
    found.shell.push(afterName);
    return '';
  }
  if (matches(name, 'sh[ell]')) found.unjudged.push({ written: `:${name}`, why: 'opens a shell' });
  else if (matches(name, 'ter[minal]')) {
    const shell = afterName.replace(/^(\+\+\w+(=\S+)?\s*)*/, '');
    if (shell.trim() === '') found.unjudged.push({ written: `:${name}`, why: 'opens a terminal running a shell' });
    else found.shell.push(shell);
    return '';
  } else if (is(name, SCRIPT_FILES)) found.unjudged.push({ written: `:${name} ${args}`.trim(), why: `runs the script ${args.trim() || 'it names'}, which Tandem cannot see` });
  else if (CODE.some(([spec]) => matches(name, spec))) {
    found.code.push({ language: CODE.find(([spec]) => matches(name, spec))?.[1] ?? 'other', text: afterName });
    return '';
  } else if (matches(name, 'exe[cute]')) execute(args, found, depth);
  else if (is(name, EXPRESSIONS)) {
    found.code.push({ language: 'vim', text: args });
    if (matches(name, 'cal[l]') && !HARMLESS_CALLS.test(args) && !/\b(system|systemlist|jobstart|job_start|termopen|term_start)\s*\(/.test(args)) found.unjudged.push({ written: `:call ${args}`, why: 'calls a vim function Tandem cannot judge' });
  } else if (matches(name, 'norm[al]')) {
    if (/[:!Q@]/.test(afterName)) found.unjudged.push({ written: `:${name} ${afterName}`, why: 'types normal-mode keys that can run commands' });
    return '';
  } else if (matches(name, 'mak[e]') || matches(name, 'lmak[e]')) found.shell.push(`make ${args}`.trim());
  else if (['gr[ep]', 'lgr[ep]', 'grepa[dd]', 'lgrepa[dd]'].some((spec) => matches(name, spec))) found.shell.push(`grep -n ${args}`.trim());
  else if (matches(name, 'redi[r]')) {
    const file = /^!?\s*>>?\s*(\S.*)$/.exec(args.trim());
    if (file) found.writes.push((file[1] as string).trim());
  } else if (is(name, WRITES)) {
    const file = args.replace(/^(\+\+\w+(=\S+)?\s*)*/, '').replace(/^>>\s*/, '').trim();
    if (file !== '') found.writes.push(file);
  } else if (matches(name, 'au[tocmd]') || matches(name, 'com[mand]')) {
    found.unjudged.push({ written: `:${name} ${afterName}`.trim(), why: 'sets up commands that run later' });
    const later = matches(name, 'com[mand]') ? /^(?:-\S+\s+)*\w+\s+(.*)$/.exec(afterName) : /^(?:\S+\s+)?[A-Z][\w,]*\s+\S+\s+(?:\+\+\w+\s+)*(.*)$/.exec(afterName);
    if (later?.[1]) analyzeExCommands(later[1], found, depth + 1);
    return '';
  } else if (matches(name, 'doau[tocmd]') || matches(name, 'doautoa[ll]')) {
    found.unjudged.push({ written: `:${name} ${args}`.trim(), why: 'runs autocommands Tandem cannot see' });
  } else if (matches(name, 's[ubstitute]') && args.includes('\\=')) found.code.push({ language: 'vim', text: args });
  else if (!is(name, HARMLESS)) found.unjudged.push({ written: `:${name}${bang ? '!' : ''} ${args}`.trim(), why: 'is a vim command Tandem cannot judge' });
  return next;
}

/** `:execute "!rm -rf ~"`: a literal string is an Ex command again; anything built is unjudged. */
function execute(args: string, found: ExFindings, depth: number): void {
  const text = args.trim();
  const literal = readCodeLiteral(text, 0, 'any', 'vim');
  if (literal && literal.end === text.length && !literal.interpolated) return void analyzeExCommands(literal.value, found, depth + 1);
  found.code.push({ language: 'vim', text });
  found.unjudged.push({ written: `:execute ${text}`, why: 'runs an Ex command built at run time' });
}

/** The text up to the next `|` that separates commands (not inside quotes, not escaped), and what follows it. */
function splitBar(text: string): [string, string] {
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '|') return [text.slice(0, i), text.slice(i + 1)];
  }
  return [text, ''];
}
