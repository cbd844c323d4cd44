// The engine's own wire format, tuned windows and test home, bundled from src/ and test/ once
// per bench run: the bench measures what ships, with no copies of it to drift apart.
import { importEngineModules } from './engineModules.js';

const modules = await importEngineModules('shared', {
  protocol: 'src/shared/protocol.ts',
  flowPolicy: 'src/main/pty/flowPolicy.ts',
  testHome: 'test/support/testHome.ts',
});

/** src/shared/protocol.ts: FrameKind, encodeFrame, decodeFrame, encodeAck, decodeAckCount, … */
export const protocol = modules.protocol;
/** src/main/pty/flowPolicy.ts: RENDERER_WINDOW, MIRROR_WINDOW, … */
export const flowPolicy = modules.flowPolicy;
/** test/support/testHome.ts: makeTestHome, testHomeEnv, removeTestHome */
export const testHome = modules.testHome;
