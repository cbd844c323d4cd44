import type { DiffView } from '../../shared/agent';
import { plural } from '../../shared/countWords';

/** An edit step's diff as unified diff text (`--- a/…`, `+++ b/…`, `@@` hunks), for the event stream and the terminal. */
export function unifiedDiff(path: string, diff: DiffView, creates: boolean): string {
  const lines = [`--- ${creates ? '/dev/null' : `a${path}`}`, `+++ b${path}`];
  for (const hunk of diff.hunks) {
    const oldCount = hunk.lines.filter((line) => line.kind !== 'add').length;
    const newCount = hunk.lines.filter((line) => line.kind !== 'remove').length;
    lines.push(`@@ -${hunk.oldStart},${oldCount} +${hunk.newStart},${newCount} @@`);
    for (const line of hunk.lines) lines.push(`${line.kind === 'add' ? '+' : line.kind === 'remove' ? '-' : ' '}${line.text}`);
  }
  if (diff.finalNewline) lines.push(`\\ ${diff.finalNewline === 'added' ? 'A line break was added at the end of the file' : 'No newline at end of file'}`);
  if (diff.hiddenLines) lines.push(`… ${plural(diff.hiddenLines, 'more diff line')} not shown`);
  return lines.join('\n');
}
