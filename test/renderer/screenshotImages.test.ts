import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EngineConnection } from '../../src/renderer/src/transport/engineConnection';
import { conversationView } from './support/conversationView';
import { importRendererModule } from './support/rendererModule';

type ImagesModule = typeof import('../../src/renderer/src/ai/screenshotImages');
type RequestsModule = typeof import('../../src/renderer/src/ai/agentRequests');
type StoreModule = typeof import('../../src/renderer/src/ai/conversationStore');
type EngineModule = typeof import('../../src/renderer/src/app/engine');

// The panel's screenshot thumbnails fetch each image from the engine once and keep it; a new
// conversation (the engine forgets its images) empties that cache, so it does not grow with
// every conversation of a long session. The engine connection is a stand-in at the edge.

let images: ImagesModule;
let requests: RequestsModule;
let store: StoreModule['useConversationStore'];

/** The engine's side: images by id, counted; `agent.new` answers with a fresh conversation; a held image waits to be released. */
const engineSide = {
  imageRequests: [] as string[],
  nextConversation: 'c2',
  held: new Map<string, () => void>(),
  hold: new Set<string>(),
};

const standInConnection = {
  async request(method: string, params: { id?: string }) {
    if (method === 'agent.new') return conversationView([], { id: engineSide.nextConversation });
    if (method === 'agent.image') {
      const id = params.id!;
      engineSide.imageRequests.push(id);
      if (engineSide.hold.has(id)) await new Promise<void>((resolve) => engineSide.held.set(id, resolve));
      return { src: `data:image/png;base64,${id}` };
    }
    throw new Error(`unexpected request ${method}`);
  },
};

beforeAll(async () => {
  vi.stubGlobal('window', { ...globalThis, tandemElectron: undefined });
  vi.stubGlobal('navigator', { platform: 'Linux x86_64' });
  const { setEngine } = await importRendererModule<EngineModule>('app/engine.ts');
  setEngine(standInConnection as unknown as EngineConnection);
  images = await importRendererModule<ImagesModule>('ai/screenshotImages.ts');
  requests = await importRendererModule<RequestsModule>('ai/agentRequests.ts');
  ({ useConversationStore: store } = await importRendererModule<StoreModule>('ai/conversationStore.ts'));
});

afterAll(() => vi.unstubAllGlobals());

beforeEach(() => {
  engineSide.imageRequests = [];
  engineSide.hold.clear();
  store.getState().replace(conversationView([], { id: 'c1' }));
});

describe("the panel's screenshot images", () => {
  it('are fetched once per conversation, while its view changes', async () => {
    expect(await images.loadScreenshot('a')).toBe('data:image/png;base64,a');
    expect(await images.loadScreenshot('a')).toBe('data:image/png;base64,a');
    store.getState().replace(conversationView([], { id: 'c1', status: 'thinking' }));
    expect(images.keptScreenshot('a')).toBe('data:image/png;base64,a');
    expect(engineSide.imageRequests).toEqual(['a']);
  });

  it('are forgotten when a new conversation starts (New conversation in the panel)', async () => {
    await images.loadScreenshot('a');
    engineSide.nextConversation = 'c2';
    await requests.newConversation();
    expect(store.getState().conversation?.id).toBe('c2');
    expect(images.keptScreenshot('a')).toBeUndefined();
  });

  it('are forgotten when the engine sends another conversation (started elsewhere)', async () => {
    await images.loadScreenshot('a');
    await images.loadScreenshot('b');
    store.getState().replace(conversationView([], { id: 'c3' }));
    expect(images.keptScreenshot('a')).toBeUndefined();
    expect(images.keptScreenshot('b')).toBeUndefined();
    await images.loadScreenshot('a');
    expect(engineSide.imageRequests).toEqual(['a', 'b', 'a']);
  });

  it('an image that arrives after its conversation was replaced is shown but not kept', async () => {
    engineSide.hold.add('late');
    const loading = images.loadScreenshot('late');
    await vi.waitFor(() => expect(engineSide.held.has('late')).toBe(true));
    store.getState().replace(conversationView([], { id: 'c4' }));
    engineSide.held.get('late')!();
    expect(await loading).toBe('data:image/png;base64,late');
    expect(images.keptScreenshot('late')).toBeUndefined();
  });
});
