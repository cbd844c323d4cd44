/**
 * Waits, one event-loop turn at a time, until `condition` holds: for work that settles on its
 * own (promises, setImmediate, I/O such as a grammar loading), not on a timer. Bounded by
 * wall-clock time rather than turns, so that I/O slowed by a busy machine is waited for too
 * (200 turns once ran out before a grammar had loaded). Needs a real setImmediate.
 */
export async function untilTrue(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`never happened within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
