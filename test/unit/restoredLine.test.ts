import { describe, expect, it } from 'vitest';
import { restoredLine } from '../../src/main/session/restoredLine';

const text = (line: string) => line.replace(/\x1b\[[0-9;]*m/g, '').replace(/\r\n/g, '');

describe('restoredLine', () => {
  const savedAt = new Date(2026, 10, 27, 14, 2, 30).getTime();
  const sameDay = new Date(2026, 10, 27, 18, 0).getTime();

  it('is short: the time when the session was saved today, the date too otherwise', () => {
    expect(text(restoredLine(savedAt, 80, sameDay))).toBe('── restored · 14:02 ──');
    expect(text(restoredLine(savedAt, 80, new Date(2026, 10, 29, 9, 0).getTime()))).toBe('── restored · 2026-11-27 14:02 ──');
  });

  it('never fills or wraps the row, however narrow the pane', () => {
    for (let cols = 2; cols <= 40; cols++) {
      const shown = text(restoredLine(savedAt, cols, new Date(2026, 11, 1).getTime()));
      expect(shown.length).toBeLessThan(cols);
      expect(shown).toMatch(/^(── )?restored|^r/);
    }
    expect(text(restoredLine(savedAt, 20, sameDay))).toBe('restored · 14:02');
  });
});
