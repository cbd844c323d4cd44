import type { DiffLine, EditStepView } from '../../../shared/agent';

const SIGN: Record<DiffLine['kind'], string> = { same: ' ', add: '+', remove: '-' };

/** An edit step's change as a unified diff: old and new line numbers, coloured, scrolling inside the card. */
export function DiffCard({ edit }: { edit: EditStepView }) {
  const { diff } = edit;
  return (
    <div className="diff" data-testid="diff" data-added={diff.added} data-removed={diff.removed}>
      <div className="diff__head">
        {/* Cut from the left when long (rtl), the path itself kept left to right. */}
        <span className="diff__path" title={edit.path}>
          <bdo dir="ltr">{edit.path}</bdo>
        </span>
        {edit.creates && <span className="diff__new">new file</span>}
        <span className="diff__added">+{diff.added}</span>
        <span className="diff__removed">−{diff.removed}</span>
      </div>
      <div className="diff__body" tabIndex={-1}>
        <table className="diff__table">
          {diff.hunks.map((hunk, index) => (
            <tbody key={index} className="diff__hunk">
              <tr className="diff__hunk-head">
                <td colSpan={4}>
                  @@ −{hunk.oldStart},{hunk.lines.filter((line) => line.oldLine !== undefined).length} +{hunk.newStart},
                  {hunk.lines.filter((line) => line.newLine !== undefined).length} @@
                </td>
              </tr>
              {hunk.lines.map((line, row) => (
                <tr key={row} className={`diff__line diff__line--${line.kind}`} data-kind={line.kind}>
                  <td className="diff__number">{line.oldLine ?? ''}</td>
                  <td className="diff__number">{line.newLine ?? ''}</td>
                  <td className="diff__sign">{SIGN[line.kind]}</td>
                  <td className="diff__text">{line.text}</td>
                </tr>
              ))}
            </tbody>
          ))}
        </table>
        {diff.hunks.length === 0 && !diff.finalNewline && <div className="diff__empty">{edit.creates ? 'an empty file' : 'no line changes'}</div>}
        {diff.finalNewline && <div className="diff__hidden">line break at the end of the file {diff.finalNewline}</div>}
        {diff.hiddenLines !== undefined && <div className="diff__hidden">{diff.hiddenLines} more diff lines not shown</div>}
      </div>
    </div>
  );
}
