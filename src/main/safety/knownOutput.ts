/**
 * What simple producers print, when their arguments are literal: `echo …`, `printf %s …`,
 * `cat` of a known input, `base64 -d`, `rev`, `xxd -r -p`. It lets the classifier see that
 * `echo cm0gLXJmIC8= | base64 -d | sh` runs `rm -rf /`.
 */

/** A command's exact output. `decoded`: it came out of a decoder (base64, rev, xxd), so it was hidden in the command. */
export interface KnownText {
  text: string;
  decoded: boolean;
}

/**
 * The output of `name` with these literal arguments, or undefined when it is not one of the
 * producers followed or the output depends on more than is known. `input` gives its standard
 * input when that is known; it is asked only by the commands that read it.
 */
export function producedOutput(name: string, args: readonly string[], input: () => KnownText | undefined): KnownText | undefined {
  switch (name) {
    case 'echo': {
      let i = 0;
      let newline = true;
      let escapes = false;
      for (; i < args.length && /^-[neE]+$/.test(args[i] as string); i++) {
        if (args[i]?.includes('n')) newline = false;
        if (args[i]?.includes('e')) escapes = true;
      }
      const text = args.slice(i).join(' ');
      return { text: (escapes ? decodeEscapes(text) : text) + (newline ? '\n' : ''), decoded: false };
    }
    case 'printf': {
      const [format = '', ...rest] = args;
      if (/%(?!%|s)/.test(format)) return undefined; // only `%s` is followed
      let i = 0;
      const text = format.replace(/%(%|s)/g, (_m, c: string) => (c === '%' ? '%' : (rest[i++] ?? '')));
      return { text: decodeEscapes(text), decoded: false };
    }
    case 'cat':
      return args.length === 0 ? input() : undefined;
    case 'base64': {
      if (!args.some((a) => /^(-[a-zA-Z]*[dD][a-zA-Z]*|--decode)$/.test(a)) || args.some((a) => !a.startsWith('-'))) return undefined;
      const from = input();
      return from ? { text: Buffer.from(from.text, 'base64').toString('utf8'), decoded: true } : undefined;
    }
    case 'rev': {
      const from = input();
      return from && args.length === 0 ? { text: from.text.split('\n').map((l) => [...l].reverse().join('')).join('\n'), decoded: true } : undefined;
    }
    case 'xxd': {
      const from = input();
      if (!from || !args.includes('-r') || !args.includes('-p')) return undefined;
      return { text: Buffer.from(from.text.replace(/\s+/g, ''), 'hex').toString('utf8'), decoded: true };
    }
    default:
      return undefined;
  }
}

/** The backslash escapes `echo -e` and `printf` understand. */
function decodeEscapes(text: string): string {
  return text.replace(/\\(n|t|r|\\|x[0-9a-fA-F]{2}|0[0-7]{0,3})/g, (_m, e: string) => {
    if (e === 'n') return '\n';
    if (e === 't') return '\t';
    if (e === 'r') return '\r';
    if (e === '\\') return '\\';
    if (e.startsWith('x')) return String.fromCharCode(Number.parseInt(e.slice(1), 16));
    return String.fromCharCode(Number.parseInt(e.slice(1) || '0', 8));
  });
}
