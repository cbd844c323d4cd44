import { availableParallelism, loadavg } from 'node:os';

/**
 * Time limits for tests that wait for real shells, ptys and browsers: a base that is ample
 * on a quiet machine, scaled by how busy this machine is, so a slow (loaded, shared, CI)
 * machine makes a test slower, not red. A hung test still fails, only later.
 *
 * The factor is `TANDEM_TEST_TIMEOUT_SCALE` when set (a number from 1 to 20), otherwise the
 * load per core when the test process started (1-minute load average / cores, at least 1;
 * load 13 on 2 cores is 6.5), doubled under CI, at most 10.
 */

const MAX_SCALE = 10;

function parseScale(text: string | undefined): number | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 1 || value > 20) {
    throw new Error(`TANDEM_TEST_TIMEOUT_SCALE must be a number from 1 to 20, not ${JSON.stringify(text)}.`);
  }
  return value;
}

/** The factor time limits are multiplied by on this machine now. */
export function timeoutScale(env: NodeJS.ProcessEnv = process.env, load = loadavg()[0] ?? 0, cores = availableParallelism()): number {
  const set = parseScale(env.TANDEM_TEST_TIMEOUT_SCALE);
  if (set !== undefined) return set;
  const perCore = Math.max(1, load / Math.max(1, cores));
  const ci = env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0';
  return Math.min(MAX_SCALE, perCore * (ci ? 2 : 1));
}

const SCALE = timeoutScale();

/** `baseMs` (enough on a quiet machine) scaled for this machine, in whole milliseconds. */
export function shellTimeout(baseMs: number): number {
  return Math.ceil(baseMs * SCALE);
}
