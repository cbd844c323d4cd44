import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConversationItem } from '../../src/shared/agent';
import { importRendererModule } from './support/rendererModule';

type MessageListModule = typeof import('../../src/renderer/src/ai/MessageList');

// The conversation marks where what the model still sees begins, once history was dropped.

let ConversationItems: MessageListModule['ConversationItems'];

beforeAll(async () => {
  vi.stubGlobal('window', { ...globalThis, tandemElectron: undefined });
  vi.stubGlobal('navigator', { platform: 'Linux x86_64' });
  ({ ConversationItems } = await importRendererModule<MessageListModule>('ai/MessageList.tsx'));
});

afterAll(() => vi.unstubAllGlobals());

const items: ConversationItem[] = [
  { id: 'u1', role: 'user', text: 'old question', source: 'panel', attachments: [], at: 1 },
  { id: 'a1', role: 'assistant', text: 'old answer', streaming: false, at: 2 },
  { id: 'u2', role: 'user', text: 'new question', source: 'panel', attachments: [], at: 3 },
];

describe('dropped history', () => {
  it('a marker sits right before the first item the model still sees', () => {
    const html = renderToStaticMarkup(createElement(ConversationItems, { items, contextStartsAt: 'u2' }));
    const marker = html.indexOf('data-testid="dropped-history"');
    expect(marker).toBeGreaterThan(html.indexOf('old answer'));
    expect(marker).toBeLessThan(html.indexOf('new question'));
    expect(html).toContain('The model no longer sees the messages above');
  });

  it('no marker while nothing was dropped', () => {
    expect(renderToStaticMarkup(createElement(ConversationItems, { items, contextStartsAt: undefined }))).not.toContain('dropped-history');
  });
});

describe('compacted history', () => {
  it('a marker with the turns and tokens sits right before the first item sent whole', () => {
    const html = renderToStaticMarkup(createElement(ConversationItems, { items, contextStartsAt: undefined, compaction: { startsAt: 'u2', turns: 14, fromTokens: 23_400, toTokens: 1_234 } }));
    const marker = html.indexOf('data-testid="compacted-history"');
    expect(marker).toBeGreaterThan(html.indexOf('old answer'));
    expect(marker).toBeLessThan(html.indexOf('new question'));
    expect(html).toContain('Earlier turns compacted: 14 turns → 1.2k tokens (from 23.4k)');
    expect(html).not.toContain('data-testid="dropped-history"');
  });

  it('no marker while nothing was compacted', () => {
    expect(renderToStaticMarkup(createElement(ConversationItems, { items, contextStartsAt: undefined }))).not.toContain('compacted-history');
  });
});
