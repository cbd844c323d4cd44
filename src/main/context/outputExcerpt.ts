/**
 * Model-free excerpts of long terminal output: head + tail with an exact account of what was
 * left out, the lines that look like errors, and a short summary. Nothing here cuts silently:
 * every omission is replaced by a marker that says how much is missing.
 *
 * Lines are the text split on `\n` (`\r\n` counts as one line break); a single trailing line
 * break ends the last line rather than starting an empty one, as `wc -l` would see it.
 * Character counts are UTF-16 code units (JavaScript string length); sizes in markers are
 * UTF-8 bytes, which is what a user means by "KB".
 *
 * This is the entry to the family; each part lives in its own file: headTail · errorLineDetection
 * (which lines look like errors) · errorLinesExcerpt · outputSummary · outputLines (splitting,
 * cutting one line) · countLabels (how counts and sizes are written) · excerptLimits.
 */

export { formatBytes, formatCount } from './countLabels';
export { findErrorLines, findErrorLinesIn, type ErrorLineMatch, type ErrorSeverity } from './errorLineDetection';
export { errorLines, type ErrorLinesOptions, type ErrorLinesResult } from './errorLinesExcerpt';
export { headGapTail, headTail, type HeadTailOptions, type HeadTailResult } from './headTail';
export { cutLineMiddle, splitLines } from './outputLines';
export { summarizeOutput } from './outputSummary';
