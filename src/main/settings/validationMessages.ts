import type { z } from 'zod';

/**
 * The first few problems zod found in a file, as one line for the user; with `lineOf`, each
 * names the line of the key it is about (`ai.fontSize (line 7): …`).
 */
export function describeIssues(error: z.ZodError, lineOf?: (table: string, key: string) => number | undefined): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => {
      const path = issue.path.map(String);
      // An unknown key is reported on its table; name the key itself.
      if (issue.code === 'unrecognized_keys' && issue.keys.length > 0) path.push(issue.keys[0]!);
      const line = path.length >= 2 ? lineOf?.(path[0]!, path[1]!) : path.length === 1 ? lineOf?.(path[0]!, '') : undefined;
      return `${path.join('.') || '(top level)'}${line ? ` (line ${line})` : ''}: ${issue.message}`;
    })
    .join('; ');
}

/** smol-toml's errors carry a code excerpt after the first line; the first line says it. */
export function firstLine(text: string): string {
  return text.split('\n')[0] ?? text;
}
