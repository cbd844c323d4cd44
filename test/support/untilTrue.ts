/** Lets pending work (promises, immediates) run until `condition` holds; fails after a bounded number of turns, never sleeps. */
export async function untilTrue(condition: () => boolean, what: string): Promise<void> {
  for (let turn = 0; turn < 200; turn++) {
    if (condition()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`never happened: ${what}`);
}
