import type { HistoryEntry } from '../../../shared/history';
import { durationText, exactTime, exitText, whoText } from './recordFormat';

/** The most of a digest put into the AI input: its last lines, where errors usually are. */
const DIGEST_LINES = 30;
const DIGEST_CHARS = 3_000;

/** A record from the history, told to the AI in the input, for a question to follow. */
export function aiQuestionAbout(record: HistoryEntry): string {
  const facts = [exitText(record), durationText(record.durationMs), `run by ${whoText(record)}`, `at ${exactTime(record.startedAt)}`, record.cwd ? `in ${record.cwd}` : '']
    .filter(Boolean)
    .join(', ');
  const lines = [`About this command from my history (${facts}):`, fence(record.command)];
  const digest = record.outputDigest?.trim();
  if (digest) lines.push(`What it printed (digest${record.digestCut || tail(digest) !== digest ? ', cut' : ''}):`, fence(tail(digest)));
  return lines.join('\n');
}

function tail(digest: string): string {
  const last = digest.split('\n').slice(-DIGEST_LINES).join('\n');
  return last.length > DIGEST_CHARS ? last.slice(-DIGEST_CHARS) : last;
}

/** A Markdown code fence longer than any backtick run in the text. */
function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
  const marks = '`'.repeat(longest + 1);
  return `${marks}\n${text}\n${marks}`;
}
