import { vi } from 'vitest';
import type { EngineConnection } from '../../../src/renderer/src/transport/engineConnection';
import { importRendererModule } from './rendererModule';

type EngineModule = typeof import('../../../src/renderer/src/app/engine');

/** A request the renderer sent to the stand-in engine; it waits until the test answers or fails it. */
export interface SentRequest {
  method: string;
  params: Record<string, unknown>;
  answer(result: unknown): void;
  fail(error: Error): void;
}

/**
 * For a `beforeAll`: a plain window without Electron, and in place of the engine connection a
 * stand-in at the edge that records each request in `sent` and answers it only when the test
 * releases it (answers can then come back late or out of order).
 */
export async function holdEngineRequests(sent: SentRequest[]): Promise<void> {
  vi.stubGlobal('window', { ...globalThis, tandemElectron: undefined });
  vi.stubGlobal('navigator', { platform: 'Linux x86_64', userAgent: 'vitest', maxTouchPoints: 0 });
  const { setEngine } = await importRendererModule<EngineModule>('app/engine.ts');
  setEngine({
    request(method: string, params: Record<string, unknown>) {
      return new Promise((resolve, reject) => sent.push({ method, params, answer: resolve, fail: reject }));
    },
  } as unknown as EngineConnection);
}
