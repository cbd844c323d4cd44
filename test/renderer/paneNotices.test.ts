import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversationView } from '../../src/shared/agent';
import type { PaneInfo } from '../../src/shared/protocol';
import { importRendererModule } from './support/rendererModule';

type PanesStoreModule = typeof import('../../src/renderer/src/terminal/panesStore');
type ConversationStoreModule = typeof import('../../src/renderer/src/ai/conversationStore');
type NoticeEndsModule = typeof import('../../src/renderer/src/companion/noticeEnds');

let panes: PanesStoreModule;
let conversations: ConversationStoreModule;

beforeAll(async () => {
  vi.stubGlobal('window', globalThis);
  panes = await importRendererModule<PanesStoreModule>('terminal/panesStore.ts');
  conversations = await importRendererModule<ConversationStoreModule>('ai/conversationStore.ts');
  const { wireNoticeEnds } = await importRendererModule<NoticeEndsModule>('companion/noticeEnds.ts');
  wireNoticeEnds();
});

afterAll(() => vi.unstubAllGlobals());

const paneInfo = (paneId: number): PaneInfo => ({ paneId, shell: '/bin/bash', shellName: 'bash', integration: true, cwd: '/home/u', state: 'PROMPT' }) as PaneInfo;

function conversation(status: ConversationView['status'], auto?: ConversationView['auto']): ConversationView {
  return { id: 'c1', items: [], status, backend: 'anthropic', model: 'm', queued: 0, grants: [], policyProblems: [], auto } as unknown as ConversationView;
}

const shown = (paneId: number) => panes.usePanesStore.getState().panes[paneId]?.notices.map((notice) => notice.message);

const TASK_HINT = { paneId: 1, level: 'info' as const, message: 'Type the task after !auto', ends: ['typing' as const, 'command' as const, 'run-start' as const, 'timeout' as const] };
const BUSY = { paneId: 1, level: 'warning' as const, message: 'The agent is still working', ends: ['command' as const, 'run-start' as const, 'agent-idle' as const] };
const LASTING = { paneId: 1, level: 'warning' as const, message: 'Shell integration is off' };

beforeEach(() => {
  panes.usePanesStore.getState().clear();
  panes.usePanesStore.getState().addPane(paneInfo(1));
  panes.usePanesStore.getState().addPane(paneInfo(2));
  conversations.useConversationStore.getState().replace(conversation('awaiting-approval'));
});

afterEach(() => vi.useRealTimers());

describe('pane notices end with their cause', () => {
  it('typing in the pane ends a "type the task" hint, not a lasting warning, nor another pane\'s', () => {
    const store = panes.usePanesStore.getState();
    store.addNotice(TASK_HINT);
    store.addNotice(LASTING);
    store.addNotice({ ...TASK_HINT, paneId: 2 });
    store.endNotices(1, 'typing');
    expect(shown(1)).toEqual([LASTING.message]);
    expect(shown(2)).toEqual([TASK_HINT.message]);
  });

  it('"still working" goes when the agent has nothing left in progress', () => {
    panes.usePanesStore.getState().addNotice(BUSY);
    conversations.useConversationStore.getState().replace(conversation('running-step'));
    expect(shown(1)).toEqual([BUSY.message]);
    conversations.useConversationStore.getState().replace(conversation('idle'));
    expect(shown(1)).toEqual([]);
  });

  it('a notice about the busy agent that arrives once it is idle does not stay', () => {
    conversations.useConversationStore.getState().replace(conversation('idle'));
    panes.usePanesStore.getState().addNotice(BUSY);
    expect(shown(1)).toEqual([]);
  });

  it('a new auto run takes away notices it makes moot, in every pane', () => {
    const store = panes.usePanesStore.getState();
    store.addNotice(BUSY);
    store.addNotice({ ...TASK_HINT, paneId: 2 });
    store.addNotice(LASTING);
    conversations.useConversationStore.getState().replace(conversation('thinking', { task: 't', paneId: 2, startedAt: 1000, steps: 0, current: 0, maxSteps: 50 }));
    expect(shown(1)).toEqual([LASTING.message]);
    expect(shown(2)).toEqual([]);
  });

  it('a purely informative notice goes by itself after a while; a lasting one stays', () => {
    vi.useFakeTimers();
    panes.usePanesStore.getState().addNotice(TASK_HINT);
    panes.usePanesStore.getState().addNotice(LASTING);
    vi.advanceTimersByTime(panes.NOTICE_TIMEOUT_MS);
    expect(shown(1)).toEqual([LASTING.message]);
  });

  it('the same message again replaces the one shown instead of stacking', () => {
    panes.usePanesStore.getState().addNotice(BUSY);
    panes.usePanesStore.getState().addNotice(BUSY);
    expect(shown(1)).toEqual([BUSY.message]);
  });
});
