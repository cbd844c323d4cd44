/**
 * `allow_patterns` and `deny_patterns` of policy.toml: shell-style patterns over command text,
 * whitespace-normalised. `*` matches any run of characters except the shell's control
 * characters (`; & | < > ( ) $( \``, newline), so `npm run *` covers `npm run build` but not
 * `npm run build && rm -rf ~`; `?` is one such character. A pattern ending in ` *` also
 * covers the command with no arguments (`sudo *` covers `sudo`).
 */

const CONTROL = ";&|<>()`\\n";

const compiled = new Map<string, RegExp>();

function toRegExp(pattern: string): RegExp {
  let regex = compiled.get(pattern);
  if (regex) return regex;
  const normalized = normalizeCommand(pattern);
  const optionalTail = normalized.endsWith(' *');
  const body = optionalTail ? normalized.slice(0, -2) : normalized;
  const anyRun = `[^${CONTROL}]*`;
  const one = `[^${CONTROL}]`;
  let source = '';
  for (const char of body) {
    if (char === '*') source += anyRun;
    else if (char === '?') source += one;
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  if (optionalTail) source += `(?: ${anyRun})?`;
  regex = new RegExp(`^${source}$`, 's');
  compiled.set(pattern, regex);
  return regex;
}

export function normalizeCommand(text: string): string {
  return text.trim().replace(/[ \t]+/g, ' ');
}

/** The first pattern that covers the whole text, if any. */
export function matchingPattern(patterns: readonly string[] | undefined, text: string): string | undefined {
  if (!patterns || patterns.length === 0) return undefined;
  const normalized = normalizeCommand(text);
  return patterns.find((pattern) => toRegExp(pattern).test(normalized));
}

/**
 * Pieces of a command line a deny pattern is tried against besides the whole line: the text
 * between control operators, and each piece again with leading wrappers (`sudo`, `env`,
 * `nohup` …) and `VAR=value` assignments removed. This over-splits quoted text on purpose: for
 * a deny list, a false match is a question to the user, a missed one is a hole.
 */
export function commandSegments(command: string): string[] {
  const segments = new Set<string>();
  for (const raw of command.split(/&&|\|\||[;&|\n(){}`]|\$\(/)) {
    let piece = normalizeCommand(raw.replace(/^[\s!]+/, ''));
    while (piece) {
      segments.add(piece);
      const next = piece.replace(WRAPPER_PREFIX, '');
      if (next === piece) break;
      piece = normalizeCommand(next);
    }
    // `sh -c 'sudo …'`, `eval "…"`: the quoted body is a command of its own.
    for (const quoted of raw.matchAll(/(['"])(.*?)\1/g)) {
      for (const inner of commandSegments(quoted[2]!)) segments.add(inner);
    }
  }
  return [...segments];
}

const WRAPPER_PREFIX =
  /^(?:[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|"[^"]*"|\S*)\s+|(?:sudo|doas|env|nice|ionice|nohup|time|command|builtin|exec|stdbuf|timeout|xargs)(?:\s+-\S+)*(?:\s+\d+[smhd]?)?\s+)/;
