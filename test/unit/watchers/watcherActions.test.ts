import { tmpdir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import type { WatcherFiredEvent } from '../../../src/shared/watchers';
import { RunSlots } from '../../../src/main/watchers/firing/runSlots';
import { WatcherActions } from '../../../src/main/watchers/firing/watcherActions';
import type { WatcherFiring } from '../../../src/main/watchers/watcherFiring';
import { waitUntil } from '../../support/waitUntil';

// The run a notify card's Run starts is a process at the edge: here a Node process that only
// waits, standing in for `tandem agent`, so the rule about runs is checked without a model.
const WAITING = [process.execPath, '-e', 'setInterval(() => {}, 1000)'];

function firing(name: string): WatcherFiring {
  return { watcher: { name, instruction: '# look', action: 'notify' } as WatcherFiring['watcher'], source: 'user', cwd: tmpdir(), reason: 'x changed', details: '', at: 0 };
}

let actions: WatcherActions | undefined;
afterEach(() => actions?.dispose());

describe('a notify card’s Run', () => {
  it('one run per watcher at a time: a second card of the same watcher cannot start while the first run goes; another watcher can', async () => {
    const fired: WatcherFiredEvent[] = [];
    actions = new WatcherActions({ selfCommand: WAITING, env: process.env, notify: async () => undefined, fired: (event) => fired.push(event), runChanged: () => undefined, warning: () => undefined, ...{ waitsForSlot: () => undefined, slots: new RunSlots(5), waitLimit: () => ({ ms: 3_600_000, text: '1h' }), timedOut: () => undefined } });
    await actions.fire(firing('tests'));
    await actions.fire(firing('tests'));
    await actions.fire(firing('lint'));
    const [first, second, other] = fired.map((event) => event.firingId);
    actions.run(first!);
    expect(() => actions!.run(second!)).toThrow('A run of watcher tests is still going: stop it first, or wait for it to end.');
    expect(() => actions!.run(other!)).not.toThrow();
    actions.dismiss(first!);
    expect(() => actions!.run(second!)).not.toThrow();
    expect(() => actions!.run('gone')).toThrow(/gone/);
  });

  it('a Run that waits for a run slot can be dismissed: it leaves the line and never starts; the cards say who waits', async () => {
    const fired: WatcherFiredEvent[] = [];
    const waits: string[] = [];
    const started: string[] = [];
    const slots = new RunSlots(1);
    actions = new WatcherActions({
      selfCommand: WAITING,
      env: process.env,
      notify: async () => undefined,
      fired: (event) => fired.push(event),
      runChanged: (event) => event.run && !started.includes(event.firingId) && started.push(event.firingId),
      warning: () => undefined,
      ...{ waitsForSlot: (event: { firingId: string }) => waits.push(event.firingId), slots, waitLimit: () => ({ ms: 3_600_000, text: '1h' }), timedOut: () => undefined },
    });
    await actions.fire(firing('tests'));
    await actions.fire(firing('lint'));
    await actions.fire(firing('docs'));
    const [tests, lint, docs] = fired.map((event) => event.firingId);
    actions.run(tests!);
    actions.run(lint!);
    actions.run(docs!);
    expect(started).toEqual([tests]);
    expect(waits).toEqual([lint, docs]);
    expect(actions.cards().map((card) => [card.name, card.waitsForSlot?.limit, card.run?.state])).toEqual([
      ['tests', undefined, 'starting'],
      ['lint', 1, undefined],
      ['docs', 1, undefined],
    ]);
    actions.dismiss(lint!);
    actions.dismiss(tests!);
    // The slot frees when the first run's process has ended; the dismissed Run is skipped, the next in line starts.
    await waitUntil(() => started.includes(docs!), 'the next Run in line to start');
    expect(started).toEqual([tests, docs]);
    expect(actions.cards().map((card) => card.name)).toEqual(['docs']);
  });
});
