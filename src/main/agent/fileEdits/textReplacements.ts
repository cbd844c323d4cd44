/** One replacement of an edit_file call. */
export interface TextReplacement {
  old_text: string;
  new_text: string;
}

export type LineEndings = 'lf' | 'crlf' | 'mixed';

export type Replaced = { ok: true; text: string } | { ok: false; message: string };

/** Matches listed by line in a message about an ambiguous text. */
const LISTED_MATCHES = 10;

/** The file's line endings: CRLF when every line break is one, LF when none is, mixed otherwise. */
export function lineEndings(text: string): LineEndings {
  const breaks = (text.match(/\n/g) ?? []).length;
  const crlf = (text.match(/\r\n/g) ?? []).length;
  if (crlf === 0) return 'lf';
  return crlf === breaks ? 'crlf' : 'mixed';
}

/**
 * `text` with the line breaks of a file whose endings are `endings`: the model writes LF, a
 * CRLF file stays CRLF (and the other way round). A file with mixed endings gets the text as
 * given.
 */
export function withLineEndings(text: string, endings: LineEndings): string {
  if (endings === 'crlf') return text.replace(/\r?\n/g, '\r\n');
  if (endings === 'lf') return text.replace(/\r\n/g, '\n');
  return text;
}

/**
 * Applies the replacements in order, each to the text the ones before it left: each
 * `old_text` must occur exactly once (after its line breaks are made the file's). Fails on the
 * first one that is empty, absent or ambiguous, saying which and where; then nothing is changed.
 */
export function applyReplacements(original: string, replacements: readonly TextReplacement[], fileName: string): Replaced {
  const endings = lineEndings(original);
  let text = original;
  for (const [index, replacement] of replacements.entries()) {
    const which = replacements.length > 1 ? `edits[${index}].old_text` : 'old_text';
    if (replacement.old_text === '') return { ok: false, message: `Not changed: ${which} is empty. Give the exact text to replace, or use write_file for a whole file.` };
    const oldText = withLineEndings(replacement.old_text, endings);
    const newText = withLineEndings(replacement.new_text, endings);
    const at = occurrences(text, oldText);
    if (at.length === 0) {
      const earlier = index > 0 ? ' (after the earlier edits of this call were applied)' : '';
      const hint = endings === 'mixed' ? ' The file mixes CRLF and LF line endings; old_text must use the same ones as the lines it matches.' : ' It must match exactly, whitespace and indentation included; read the file again if unsure.';
      return { ok: false, message: `Not changed: ${which} was not found in ${fileName}${earlier}.${hint}` };
    }
    if (at.length > 1) {
      const lines = at.slice(0, LISTED_MATCHES).map((offset) => lineOf(text, offset));
      const more = at.length > LISTED_MATCHES ? ', …' : '';
      return {
        ok: false,
        message: `Not changed: ${which} occurs ${at.length} times in ${fileName} (at lines ${lines.join(', ')}${more}). Include more of the surrounding lines so it matches exactly once.`,
      };
    }
    text = text.slice(0, at[0]) + newText + text.slice(at[0]! + oldText.length);
  }
  return { ok: true, text };
}

/** Start offsets of `needle` in `haystack`, overlapping ones included (an ambiguity all the same). */
function occurrences(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) found.push(at);
  return found;
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
