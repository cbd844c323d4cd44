import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { importRendererModule } from './support/rendererModule';

type PlanStepModule = typeof import('../../src/renderer/src/ai/PlanStep');

// A running `listen` step's card says it is recording and how to stop it (docs/voice.md);
// other steps keep their plain status.

let module: PlanStepModule;

beforeAll(async () => {
  vi.stubGlobal('window', { ...globalThis, tandemElectron: undefined });
  vi.stubGlobal('navigator', { platform: 'Linux x86_64', userAgent: 'vitest', maxTouchPoints: 0 });
  module = await importRendererModule<PlanStepModule>('ai/PlanStep.tsx');
});

afterAll(() => vi.unstubAllGlobals());

describe('the listen step badge', () => {
  it('says recording while a listen step runs, and its plain status otherwise', () => {
    expect(module.stepBadgeText({ kind: 'listen', status: 'running' }, false)).toBe('● recording… Esc stops');
    expect(module.stepBadgeText({ kind: 'screenshot', status: 'running' }, false)).toBe('running…');
    expect(module.stepBadgeText({ kind: 'listen', status: 'proposed' }, false)).not.toContain('recording');
    expect(module.stepBadgeText({ kind: 'command', status: 'proposed' }, true)).toBe('blocked');
  });
});
