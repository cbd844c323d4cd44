// Rows of the benchmark table. A row is a measurement, the limit or reference it is compared
// with (measured in the same run), their ratio and the target for that ratio.
//
//   { name, value, unit, ref, refName, ratio, ratioText, target, pass, note, error }
//
// `error` means the measurement could not be taken at all: the run exits non-zero.

export class Report {
  constructor() {
    this.rows = [];
    this.notes = [];
  }

  /** An informational row (no target). */
  info(name, value, unit, note) {
    this.rows.push({ name, value, unit, note });
  }

  /**
   * A compared row. `better` is 'higher' (value/ref should be >= target) or 'lower'
   * (value/ref should be <= target). `ratioAs` 'percent' prints the ratio as a percentage.
   */
  compare({ name, value, unit, ref, refName, better = 'higher', target, ratioAs = 'x', note, ratio }) {
    const r = ratio ?? value / ref;
    const pass = Number.isFinite(r) ? (better === 'higher' ? r >= target : r <= target) : undefined;
    const fmt = (x) => (ratioAs === 'percent' ? `${(x * 100).toFixed(0)}%` : `${x.toFixed(2)}x`);
    this.rows.push({
      name,
      value,
      unit,
      ref,
      refName,
      ratioText: Number.isFinite(r) ? fmt(r) : 'n/a',
      target: `${better === 'higher' ? '>=' : '<='} ${fmt(target)}`,
      pass,
      note,
    });
  }

  /** A row whose target is a difference to the reference: value - ref <= maxDelta. */
  delta({ name, value, unit, ref, refName, maxDelta, note }) {
    const d = value - ref;
    this.rows.push({
      name,
      value,
      unit,
      ref,
      refName,
      ratioText: Number.isFinite(d) ? `${d >= 0 ? '+' : ''}${d.toFixed(2)} ${unit}` : 'n/a',
      target: `<= +${maxDelta} ${unit}`,
      pass: Number.isFinite(d) ? d <= maxDelta : undefined,
      note,
    });
  }

  /** A row with an absolute target (no reference), e.g. Ctrl+C p95 < 150 ms; `orEqual`: the limit itself passes (≤, ≥). */
  absolute({ name, value, unit, limit, better = 'lower', orEqual = false, note, refName }) {
    const within = better === 'lower' ? value < limit : value > limit;
    const pass = Number.isFinite(value) ? within || (orEqual && value === limit) : undefined;
    this.rows.push({
      name,
      value,
      unit,
      refName: refName ?? 'limit',
      ref: limit,
      ratioText: Number.isFinite(value) && limit !== 0 ? `${(value / limit).toFixed(2)}x` : 'n/a',
      target: `${better === 'lower' ? '<' : '>'}${orEqual ? '=' : ''} ${limit} ${unit}`,
      pass,
      note,
    });
  }

  failed(name, error) {
    const message = error instanceof Error ? error.message : String(error);
    this.rows.push({ name, error: message });
  }

  note(text) {
    this.notes.push(text);
  }

  get hasErrors() {
    return this.rows.some((row) => row.error);
  }

  print(out = process.stdout) {
    const number = (v) => (v === undefined ? '' : typeof v === 'number' ? (Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2)) : String(v));
    const header = ['measurement', 'value', 'reference / limit', 'ratio', 'target', 'result'];
    const lines = this.rows.map((row) => {
      if (row.error) return [row.name, 'n/a', '', '', '', 'ERROR: ' + row.error];
      const value = `${number(row.value)} ${row.unit ?? ''}`.trim();
      const ref = row.ref === undefined ? '' : `${number(row.ref)} ${row.unit ?? ''} (${row.refName ?? 'ref'})`.trim();
      const result = row.pass === undefined ? (row.target ? 'n/a' : 'info') : row.pass ? 'PASS' : 'MISS';
      return [row.name, value, ref, row.ratioText ?? '', row.target ?? '', result];
    });
    const widths = header.map((h, i) => Math.min(60, Math.max(h.length, ...lines.map((l) => String(l[i]).length))));
    const fmt = (cells) => cells.map((c, i) => (i === cells.length - 1 ? String(c) : String(c).padEnd(widths[i]))).join('  ');
    out.write('\n' + fmt(header) + '\n' + widths.map((w) => '-'.repeat(w)).join('  ') + '\n');
    for (const line of lines) out.write(fmt(line) + '\n');
    const withNotes = this.rows.filter((row) => row.note);
    if (withNotes.length > 0 || this.notes.length > 0) out.write('\nnotes:\n');
    for (const row of withNotes) out.write(`  ${row.name}: ${row.note}\n`);
    for (const text of this.notes) out.write(`  ${text}\n`);
  }
}

/** Runs `fn`, turning a throw into an error row instead of aborting the whole bench. */
export async function measure(report, name, fn) {
  try {
    return await fn();
  } catch (error) {
    report.failed(name, error);
    if (process.env.BENCH_DEBUG) console.error(error);
    return undefined;
  }
}
