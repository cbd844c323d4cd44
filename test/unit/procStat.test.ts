import { describe, expect, it } from 'vitest';
import { listProcesses, parseProcStat, readProcStat } from '../../src/main/pty/procStat';

describe('/proc/<pid>/stat', () => {
  it('takes the name up to the last parenthesis, whatever spaces and parentheses it holds', () => {
    const stat = '4242 (my (odd) prog) S 17 4242 4242 34816 4300 4194304 0 0 0 0';
    expect(parseProcStat(stat)).toEqual({ pid: 4242, name: 'my (odd) prog', parent: 17, group: 4242, terminalGroup: 4300 });
  });

  it('gives nothing for a line that is not a stat line', () => {
    expect(parseProcStat('')).toBeUndefined();
    expect(parseProcStat('4242 no parentheses S 1 1 1 0 -1')).toBeUndefined();
    expect(parseProcStat('4242 (x) S one 1 1 0 -1')).toBeUndefined();
  });

  it.runIf(process.platform === 'linux')('reads this process as the kernel lists it', () => {
    const self = readProcStat(process.pid);
    expect(self?.pid).toBe(process.pid);
    expect(self?.parent).toBe(process.ppid);
    expect(listProcesses()?.some((entry) => entry.pid === process.pid)).toBe(true);
    expect(readProcStat(2 ** 30)).toBeUndefined();
  });
});
