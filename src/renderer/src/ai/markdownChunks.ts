const FENCE = /^\s*(`{3,}|~{3,})/;

/**
 * Splits Markdown at blank lines into pieces that render the same on their own, so a
 * streaming answer re-parses only its last piece: never inside a fenced code block, and
 * never before an indented line (a list item's continuation, an indented code block).
 * Joining the pieces with "\n\n" gives the text back, up to blank-line runs.
 */
export function splitMarkdownChunks(text: string): string[] {
  const lines = text.split('\n');
  const chunks: string[] = [];
  let current: string[] = [];
  let fence: string | undefined;
  let blankRun = false;

  const close = () => {
    if (current.length > 0) chunks.push(current.join('\n'));
    current = [];
  };

  for (const line of lines) {
    const fenceMatch = FENCE.exec(line);
    if (fence !== undefined) {
      current.push(line);
      if (fenceMatch && fenceMatch[1]!.startsWith(fence) && line.trim() === fenceMatch[1]) fence = undefined;
      continue;
    }
    if (line.trim() === '') {
      blankRun = current.length > 0;
      if (blankRun) current.push(line);
      continue;
    }
    if (blankRun && !/^\s/.test(line)) {
      // Drop the blank lines that ended the previous piece.
      while (current.length > 0 && current[current.length - 1]!.trim() === '') current.pop();
      close();
    }
    blankRun = false;
    if (fenceMatch) fence = fenceMatch[1];
    current.push(line);
  }
  close();
  return chunks;
}
