/**
 * Programs that synthesise keyboard and mouse input (xdotool, ydotool, wtype, xte, dotool): what
 * they type goes to whatever window has focus — possibly a terminal, which runs it. Never GREEN;
 * typed text that ends a line is judged as the command it would be in a shell.
 */
import { shown, type Arg } from './arguments';
import type { Rule, RuleEnv } from './rule';
import type { Verdict } from './verdict';

/** xdotool commands that only look (no input, no window changes). */
const XDOTOOL_LOOKS = new Set(['search', 'getactivewindow', 'getwindowfocus', 'getwindowname', 'getwindowpid', 'getwindowgeometry', 'getwindowclassname', 'getmouselocation', 'getdisplaygeometry', 'get_desktop', 'get_num_desktops', 'get_desktop_for_window', 'get_desktop_viewport', 'version', 'help']);
const TYPES = new Set(['type', 'key', 'keydown', 'keyup']);
const FOCUSES = new Set(['windowactivate', 'windowfocus', 'windowraise', 'windowmap', 'set_desktop', 'set_desktop_for_window']);
const POINTS = new Set(['click', 'mousedown', 'mouseup', 'mousemove', 'mousemove_relative', 'behave_screen_edge']);
const ENTER_KEY = /^(Return|KP_Enter|enter|ctrl\+[mj])$/i;

const typingReason = (what: string): string => `${what} types into whatever window has focus, which may be a terminal that runs what it types`;

export const xdotoolRule: Rule = (inv, out, env) => {
  const first = inv.args[0];
  if (!first) return out.green('xdotool without a command only prints its usage');
  if (first.value === undefined || first.value === '-' || (first.value.includes('.') && !first.value.startsWith('-'))) {
    return env.unjudgedCode('xdotool', shown(first), `xdotool runs the xdotool script ${shown(first)}, which Tandem cannot see (it can type into any window)`);
  }
  // Commands can be chained (`search --name x windowactivate type …`): every word that names one counts.
  const names = new Set(inv.args.flatMap((a) => (a.value !== undefined && /^[a-z_]+$/.test(a.value) ? [a.value] : [])));
  if (XDOTOOL_LOOKS.has(first.value) && [...names].every((name) => XDOTOOL_LOOKS.has(name) || !/^(window|key|type|mouse|click|set_|behave|exec)/.test(name))) return out.green('xdotool only looks up windows or the pointer');
  if ([...names].some((name) => TYPES.has(name))) out.yellow(typingReason('xdotool'));
  if ([...names].some((name) => FOCUSES.has(name))) out.yellow('xdotool moves keyboard focus to another window, where typed keys then go');
  if ([...names].some((name) => POINTS.has(name))) out.yellow('xdotool clicks or moves the pointer in whatever window is under it');
  if (names.has('windowkill') || names.has('windowclose')) out.yellow('xdotool closes a window, and what runs in it');
  if (names.has('behave') || names.has('exec')) env.unjudgedCode('xdotool', inv.args.map(shown).join(' '), 'xdotool runs commands of its own (behave, exec), which Tandem cannot judge');
  typedLines(inv.args, 'type', 'key', out, env, 'xdotool type');
  out.yellow('xdotool sends input to or changes windows of the desktop');
};

/** ydotool, wtype, xte, dotool: the same input as xdotool, for Wayland and others. */
export const inputSynthesisRule: Rule = (inv, out, env) => {
  out.yellow(typingReason(inv.name));
  if (inv.name === 'ydotool') typedLines(inv.args, 'type', 'key', out, env, 'ydotool type');
  if (inv.name === 'wtype') {
    const text = inv.args.filter((a) => a.value !== undefined && !a.value.startsWith('-')).map((a) => a.value as string);
    if (text.length > 0 && inv.args.some((a, i) => inv.args[i - 1]?.value === '-k' && ENTER_KEY.test(a.value ?? ''))) judgeTyped(text.join(''), out, env, 'wtype');
  }
};

/** `xdotool type 'rm -rf ~\n'`, or `type 'rm -rf ~' key Return`: a line typed into a terminal runs. */
function typedLines(args: readonly Arg[], typeWord: string, keyWord: string, out: Verdict, env: RuleEnv, via: string): void {
  for (let i = 0; i < args.length; i++) {
    if (args[i]?.value !== typeWord) continue;
    const text = args.slice(i + 1).find((a) => !(a.value ?? '').startsWith('-'));
    if (!text) continue;
    if (text.value === undefined) {
      env.unjudgedCode(via, text.text, `${via} types text known only at run time, which a terminal would run`);
      continue;
    }
    const entered = args.slice(i + 2).some((a, j, rest) => rest[j - 1]?.value === keyWord && ENTER_KEY.test(a.value ?? ''));
    if (text.value.includes('\n') || entered) judgeTyped(text.value, out, env, via);
  }
}

function judgeTyped(text: string, out: Verdict, env: RuleEnv, via: string): void {
  env.nestedSource(text, via);
  out.yellow(`${via} types \`${text.trim().slice(0, 60)}\` and Enter: in a terminal, that runs`);
}
