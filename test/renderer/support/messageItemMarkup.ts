import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, vi } from 'vitest';
import type { ConversationItem } from '../../../src/shared/agent';
import { importRendererModule } from './rendererModule';

type MessageItemModule = typeof import('../../../src/renderer/src/ai/MessageItem');

/**
 * For a test file: renders a conversation item (a message, a plan's cards) to the HTML the
 * browser gets, with no DOM. Loads the panel's MessageItem once, in a window without Electron.
 */
export function messageItemMarkup(): (item: ConversationItem) => string {
  let MessageItem: MessageItemModule['MessageItem'] | undefined;
  beforeAll(async () => {
    vi.stubGlobal('window', { ...globalThis, tandemElectron: undefined });
    vi.stubGlobal('navigator', { platform: 'Linux x86_64' });
    ({ MessageItem } = await importRendererModule<MessageItemModule>('ai/MessageItem.tsx'));
  });
  afterAll(() => vi.unstubAllGlobals());
  return (item) => {
    if (!MessageItem) throw new Error('messageItemMarkup: render only inside tests');
    return renderToStaticMarkup(createElement(MessageItem, { item }));
  };
}
