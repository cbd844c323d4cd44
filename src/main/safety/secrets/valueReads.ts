/**
 * Keeps the assignment scan linear. A value is read (up to 4,096 characters) and judged after
 * every operator whose name may make it a secret, and a value that is not redacted is passed
 * over, so an operator inside it is looked at again: `key=key=key=…` would read 4,096
 * characters at each of a million operators. Values read inside an earlier one (not redacted)
 * are therefore counted, and after a few the rest of the operators inside it are passed over:
 * no character is read by more than `MAX_READS_INSIDE + 1` values. In no document of the
 * differential corpus (test/unit/secretScrubberDifferential.test.ts) are even three read inside one.
 */

/** Values read inside one earlier value (not redacted) before the rest inside it are passed over. */
export const MAX_READS_INSIDE = 8;

/** Characters the assignment scan's value reads have examined since the process started: for tests of its linearity. */
export const valueReadWork = { characters: 0 };

export class ValueReads {
  /** The end of the text covered by the first value read and those read inside it. */
  private coveredUntil = -1;
  private readsInside = 0;

  /** Whether a value starting at `start` may be read. */
  mayRead(start: number): boolean {
    return start >= this.coveredUntil || this.readsInside < MAX_READS_INSIDE;
  }

  /** A value [start, end) was read (empty when none was found), examining `examined` characters. */
  read(start: number, end: number, examined: number): void {
    valueReadWork.characters += examined;
    if (end <= start) return;
    if (start >= this.coveredUntil) {
      this.coveredUntil = end;
      this.readsInside = 0;
    } else {
      this.readsInside++;
      if (end > this.coveredUntil) this.coveredUntil = end;
    }
  }
}
