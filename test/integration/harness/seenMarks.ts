import type { Mark } from '../../../src/main/osc/marks';
import { percentDecode } from '../../../src/main/osc/percentEncoding';

/** A mark a test shell printed, as the harness saw it. */
export interface SeenMark {
  mark: Mark;
  /** Byte offset in the output just past the mark. */
  offset: number;
  /** Carried this session's nonce. */
  ours: boolean;
  /** The OSC number and everything after `id;`, as the scanner found them. */
  id: number;
  payload: string;
}

/** The `key=value` option of an OSC 133 mark's payload (`A;tandem=…;cwd=…`), raw. */
export function markOption(seen: SeenMark, key: string): string | undefined {
  if (seen.id !== 133) return undefined;
  for (const part of seen.payload.split(';').slice(1)) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq) === key) return part.slice(eq + 1);
  }
  return undefined;
}

/** The cwd our A mark carries, decoded; undefined for other marks or an A without one. */
export function promptCwd(seen: SeenMark): string | undefined {
  if (!seen.ours || seen.mark.kind !== 'prompt-start') return undefined;
  const raw = markOption(seen, 'cwd');
  return raw === undefined ? undefined : percentDecode(raw);
}
