import { TomlError } from 'smol-toml';
import type { z } from 'zod';

/** Where a key of the file is: its line, and how the file spells it (an old spelling of a key). */
export interface KeyLocator {
  lineOf(table: string, key: string): number | undefined;
  /** The line of `key` in the `index`th `[[table.name]]` table. */
  lineOfArrayTableKey?(path: readonly string[], index: number, key?: string): number | undefined;
  spelledAs?(table: string, key: string): string;
}

/**
 * The first few problems zod found in a file, as one line for the user; with `locate`, each
 * names the key as the file spells it and its line (`terminal.font_size (line 7): …`).
 */
export function describeIssues(error: z.ZodError, locate?: KeyLocator): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => {
      const inArrayTable = describeArrayTableIssue(issue, locate);
      if (inArrayTable) return inArrayTable;
      const path = issue.path.map(String);
      // An unknown key is reported on its table; name the key itself.
      if (issue.code === 'unrecognized_keys' && issue.keys.length > 0) path.push(issue.keys[0]!);
      if (path.length >= 2 && locate?.spelledAs) path[1] = locate.spelledAs(path[0]!, path[1]!);
      const line = path.length >= 2 ? locate?.lineOf(path[0]!, path[1]!) : path.length === 1 ? locate?.lineOf(path[0]!, '') : undefined;
      return `${path.join('.') || '(top level)'}${line ? ` (line ${line})` : ''}: ${issue.message}`;
    })
    .join('; ');
}

/**
 * A problem in one table of an array of tables, named as the file shows it and counted from 1:
 * `[[ai.fallback]] #2, model (line 9): required`.
 */
function describeArrayTableIssue(issue: z.core.$ZodIssue, locate?: KeyLocator): string | undefined {
  const index = issue.path.findIndex((part) => typeof part === 'number');
  if (index < 1) return undefined;
  const tablePath = issue.path.slice(0, index).map(String);
  const position = issue.path[index] as number;
  const key = issue.code === 'unrecognized_keys' && issue.keys.length > 0 ? issue.keys[0] : issue.path[index + 1] === undefined ? undefined : String(issue.path[index + 1]);
  const line = locate?.lineOfArrayTableKey?.(tablePath, position, key);
  return `[[${tablePath.join('.')}]] #${position + 1}${key ? `, ${key}` : ''}${line ? ` (line ${line})` : ''}: ${issue.message}`;
}

/**
 * Why smol-toml could not parse `text`, without the file's name (the caller shows it once):
 * `not valid TOML, line 3, column 9: …`. A string left open at the end of its line is named
 * as such: smol-toml reports the newline in it as a control character.
 */
export function describeTomlError(error: unknown, text: string): string {
  if (!(error instanceof TomlError)) return `not valid TOML: ${firstLine((error as Error).message)}`;
  const message = firstLine(error.message).replace(/^Invalid TOML document: /, '');
  const line = text.split('\n')[error.line - 1] ?? '';
  const atEndOfLine = error.column - 1 >= line.replace(/\r$/, '').length;
  if (message === 'unfinished string' || (/control characters are not allowed/.test(message) && atEndOfLine)) {
    return `not valid TOML: unclosed quote on line ${error.line}`;
  }
  return `not valid TOML, line ${error.line}, column ${error.column}: ${message}`;
}

/** smol-toml's errors carry a code excerpt after the first line; the first line says it. */
function firstLine(text: string): string {
  return text.split('\n')[0] ?? text;
}
