/** What a line of unified diff text is, by its first characters. */
function lineKind(line: string): 'file' | 'hunk' | 'add' | 'remove' | 'same' | 'note' {
  if (line.startsWith('+++ ') || line.startsWith('--- ')) return 'file';
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'remove';
  if (line.startsWith(' ')) return 'same';
  return 'note';
}

/**
 * An edit's change that arrives as unified diff text (a child agent's edit that asks), coloured
 * line by line in the diff card's style. The engine's own edits use DiffCard, which has the
 * structured diff with line numbers.
 */
export function UnifiedDiffText({ text }: { text: string }) {
  return (
    <div className="diff" data-testid="child-diff">
      <pre className="diff__body diff__text-lines">
        {text.split('\n').map((line, index) => {
          const kind = lineKind(line);
          return (
            <div key={index} className={`diff__line diff__line--${kind}`} data-kind={kind}>
              {line || ' '}
            </div>
          );
        })}
      </pre>
    </div>
  );
}
