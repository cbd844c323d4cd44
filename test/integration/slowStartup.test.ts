import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useEngineClient } from '../support/engineClient';

/**
 * A startup file slower than the integration's time limit: the pane falls back to prompt
 * heuristics and says so; when the integration reports in after all, the notice is withdrawn
 * and blocks come from its trusted marks again. Real zsh, the real engine.
 */

const { open } = useEngineClient();
/** A quiet machine's time limit; the waiters scale it for this one. */
const TIMEOUT = 15_000;

describe('zsh with a .zshrc slower than the integration time limit', () => {
  it('the "did not report in" notice goes once the marks arrive, and blocks are trusted again', async () => {
    const { engine, client } = await open({ shell: '/usr/bin/zsh', integrationTimeoutMs: 500 });
    // The .zshrc waits for the test to let it go: as slow as it needs to be, no fixed sleep.
    writeFileSync(join(engine.home, '.zshrc'), 'while [[ ! -e ~/go ]]; do sleep 0.05; done\nPROMPT="%n%# "\n');
    const { paneId } = await client.request('pane.create', { cols: 100, rows: 30 });

    const silent = await client.waitFor(
      () => client.eventsOf('pane.notice').find((n) => n.paneId === paneId && n.message.includes('did not report in')),
      TIMEOUT,
      'the notice that integration did not report in',
    );
    expect(silent.topic).toBe('integration-silent');
    await client.waitFor(() => client.eventsOf('pane.state').some((s) => s.paneId === paneId && !s.integration), TIMEOUT, 'the fallback to heuristics');

    writeFileSync(join(engine.home, 'go'), '');
    await client.waitFor(
      () => client.eventsOf('pane.notice.withdrawn').find((w) => w.paneId === paneId && w.topic === 'integration-silent'),
      TIMEOUT,
      'the notice to be withdrawn',
    );
    await client.waitFor(() => client.eventsOf('pane.state').filter((s) => s.paneId === paneId).at(-1)?.integration === true, TIMEOUT, 'integration on again');
    client.type(paneId, 'echo after-startup\r');
    const block = await client.waitForBlock(paneId, 'echo after-startup', TIMEOUT);
    expect(block.trusted).toBe(true);
    expect(block.exitCode).toBe(0);
  });
});
