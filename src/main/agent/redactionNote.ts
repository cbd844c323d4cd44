import { plural } from '../../shared/countWords';

/** A mark the secret scrubber leaves in place of a secret: `[REDACTED:aws-access-key]`. */
const REDACTION_MARK = /\[REDACTED:([^\]\s]{1,60})\]/g;

/**
 * What the panel says under a tool's output: "2 secrets redacted from this output
 * (aws-access-key, github-token)". Counted from the marks in what the model is sent, which is
 * scrubbed wherever it was built (block output, file reads); undefined when there are none.
 */
export function redactionNote(sentText: string): string | undefined {
  const kinds = new Set<string>();
  let total = 0;
  for (const match of sentText.matchAll(REDACTION_MARK)) {
    total++;
    kinds.add(match[1]!);
  }
  if (total === 0) return undefined;
  return `${plural(total, 'secret')} redacted from this output (${[...kinds].join(', ')})`;
}
