import type { z } from 'zod';

/** The first few problems zod found in a file, as one line for the user. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || '(top level)'}: ${issue.message}`)
    .join('; ');
}

/** smol-toml's errors carry a code excerpt after the first line; the first line says it. */
export function firstLine(text: string): string {
  return text.split('\n')[0] ?? text;
}
