import { beforeEach, describe, expect, it } from 'vitest';
import type { PaneInfo } from '../../src/shared/protocol';
import { applyPaneEvent } from '../../src/renderer/src/terminal/applyPaneEvent';
import { usePanesStore } from '../../src/renderer/src/terminal/panesStore';

const info = { paneId: 7, shell: '/usr/bin/zsh', shellName: 'zsh', integration: true, cwd: '/', state: 'PROMPT', cols: 80, rows: 24, streamOffset: 0, exited: undefined } as PaneInfo;

describe('pane notices the engine withdraws', () => {
  beforeEach(() => {
    usePanesStore.getState().clear();
    usePanesStore.getState().addPane(info);
  });

  it('a withdrawn topic takes its notices away and leaves the others', () => {
    applyPaneEvent({ name: 'pane.notice', payload: { paneId: 7, level: 'warning', message: 'Shell integration did not report in; …', topic: 'integration-silent' } });
    applyPaneEvent({ name: 'pane.notice', payload: { paneId: 7, level: 'warning', message: 'Fell back to /bin/sh.' } });
    expect(usePanesStore.getState().panes[7]?.notices.map((n) => n.message)).toHaveLength(2);
    applyPaneEvent({ name: 'pane.notice.withdrawn', payload: { paneId: 7, topic: 'integration-silent' } });
    expect(usePanesStore.getState().panes[7]?.notices.map((n) => n.message)).toEqual(['Fell back to /bin/sh.']);
  });
});
