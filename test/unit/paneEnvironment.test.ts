import { describe, expect, it } from 'vitest';
import { PaneEnvironment } from '../../src/main/shell/paneEnvironment';

const report = (nonce: string | undefined, values: [string, string | undefined][]) => ({ kind: 'environment' as const, nonce, values: new Map(values) });

describe('PaneEnvironment: what the pane exports', () => {
  it('starts as the shell started, without our bootstrap variables, then follows our reports', () => {
    const env = new PaneEnvironment('n0nce');
    env.shellStarted({ TERM: 'xterm-256color', VIRTUAL_ENV: '/start', TANDEM_BOOTSTRAP: '/tmp/x', EMPTY: undefined });
    expect(env.values()).toEqual({ TERM: 'xterm-256color', VIRTUAL_ENV: '/start' });
    expect(env.report(report('n0nce', [['VIRTUAL_ENV', undefined], ['NODE_ENV', 'production']]))).toBe(true);
    expect(env.values()).toEqual({ TERM: 'xterm-256color', NODE_ENV: 'production' });
  });

  it('ignores a report without the pane nonce (printed by a program)', () => {
    const env = new PaneEnvironment('n0nce');
    env.shellStarted({ VIRTUAL_ENV: '/real' });
    expect(env.report(report('forged', [['VIRTUAL_ENV', '/forged']]))).toBe(false);
    expect(env.report(report(undefined, [['VIRTUAL_ENV', '/forged']]))).toBe(false);
    expect(env.values()).toEqual({ VIRTUAL_ENV: '/real' });
  });

  it('a restarted shell starts afresh', () => {
    const env = new PaneEnvironment('n0nce');
    env.shellStarted({ A: '1' });
    env.report(report('n0nce', [['A', '2']]));
    env.shellStarted({ A: '3' });
    expect(env.values()).toEqual({ A: '3' });
  });
});
