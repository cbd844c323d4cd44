export interface WindowProperties {
  title: string;
  application: string;
  instance: string;
  pid?: number;
}

/**
 * Reads `xprop -notype -id W WM_CLASS _NET_WM_NAME WM_NAME _NET_WM_PID` (run with a UTF-8
 * locale). The title is _NET_WM_NAME (UTF-8) when set, else WM_NAME.
 */
export function parseWindowProperties(output: string): WindowProperties {
  const values = new Map<string, string>();
  for (const line of output.split('\n')) {
    const match = /^([A-Z_]+) = (.*)$/.exec(line);
    if (match) values.set(match[1]!, match[2]!);
  }
  const [instance = '', application = ''] = quotedStrings(values.get('WM_CLASS') ?? '');
  const title = quotedStrings(values.get('_NET_WM_NAME') ?? values.get('WM_NAME') ?? '')[0] ?? '';
  const pid = Number(values.get('_NET_WM_PID'));
  return { title, application, instance, ...(Number.isInteger(pid) && pid > 0 ? { pid } : {}) };
}

/**
 * The window ids in a root property: `_NET_CLIENT_LIST_STACKING: window id # 0x1a00003, 0x1c00007`
 * (xprop -notype), or the `=` and `(WINDOW)` forms; undefined when the property is not set.
 */
export function windowIdsOf(output: string, property: string): string[] | undefined {
  const line = output.split('\n').find((candidate) => new RegExp(`^${property}(?:\\(|:| =)`).test(candidate));
  if (!line || /not found|no such atom/.test(line)) return undefined;
  return [...line.slice(property.length).matchAll(/0x[0-9a-f]+/g)].map((match) => match[0]);
}

/** xprop's quoted strings: `"a", "b"`, with \" \\ \n and octal escapes for raw bytes. */
export function quotedStrings(value: string): string[] {
  const strings: string[] = [];
  let at = 0;
  while ((at = value.indexOf('"', at)) !== -1) {
    const bytes: number[] = [];
    at++;
    while (at < value.length && value[at] !== '"') {
      if (value[at] === '\\' && at + 1 < value.length) {
        const octal = /^[0-7]{3}/.exec(value.slice(at + 1, at + 4));
        if (octal) {
          bytes.push(parseInt(octal[0], 8));
          at += 4;
          continue;
        }
        const escaped = value[at + 1]!;
        bytes.push(...Buffer.from(escaped === 'n' ? '\n' : escaped === 't' ? '\t' : escaped, 'utf8'));
        at += 2;
        continue;
      }
      const codePoint = value.codePointAt(at)!;
      const char = String.fromCodePoint(codePoint);
      bytes.push(...Buffer.from(char, 'utf8'));
      at += char.length;
    }
    strings.push(Buffer.from(bytes).toString('utf8'));
    at++;
  }
  return strings;
}
