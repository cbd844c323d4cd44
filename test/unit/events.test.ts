import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DisposableStore, Emitter, toDisposable } from '../../src/shared/events';

describe('Emitter', () => {
  it('calls listeners in the order they subscribed, until each unsubscribes', () => {
    const emitter = new Emitter<number>();
    const seen: string[] = [];
    const a = emitter.event((value) => seen.push(`a${value}`));
    emitter.event((value) => seen.push(`b${value}`));
    emitter.fire(1);
    a.dispose();
    a.dispose();
    emitter.fire(2);
    expect(seen).toEqual(['a1', 'b1', 'b2']);
  });

  it('the same function subscribed twice is called twice, and each subscription ends on its own', () => {
    const emitter = new Emitter<string>();
    const seen: string[] = [];
    const listener = (value: string) => seen.push(value);
    const first = emitter.event(listener);
    emitter.event(listener);
    emitter.fire('x');
    first.dispose();
    emitter.fire('y');
    expect(seen).toEqual(['x', 'x', 'y']);
  });

  it('a listener added while firing hears the next event; one removed while firing is not called', () => {
    const emitter = new Emitter<number>();
    const seen: string[] = [];
    const subscriptions: { later?: { dispose(): void } } = {};
    emitter.event((value) => {
      seen.push(`first${value}`);
      if (value === 1) emitter.event((next) => seen.push(`added${next}`));
      subscriptions.later?.dispose();
    });
    subscriptions.later = emitter.event((value) => seen.push(`removed${value}`));
    emitter.fire(1);
    emitter.fire(2);
    expect(seen).toEqual(['first1', 'first2', 'added2']);
  });

  it('a throwing listener does not stop the others; the error is rethrown, or handed to onListenerError', () => {
    const rethrowing = new Emitter<number>();
    const seen: number[] = [];
    rethrowing.event(() => {
      throw new Error('boom');
    });
    rethrowing.event((value) => seen.push(value));
    expect(() => rethrowing.fire(1)).toThrow('boom');
    expect(seen).toEqual([1]);

    const errors: unknown[] = [];
    const reporting = new Emitter<number>({ onListenerError: (error) => errors.push(error) });
    reporting.event(() => {
      throw new Error('one');
    });
    reporting.event((value) => seen.push(value));
    expect(() => reporting.fire(2)).not.toThrow();
    expect(seen).toEqual([1, 2]);
    expect(errors.map((error) => (error as Error).message)).toEqual(['one']);
  });

  it('after dispose nothing is called and new subscriptions are inert', () => {
    const emitter = new Emitter<number>();
    const seen: number[] = [];
    emitter.event((value) => seen.push(value));
    expect(emitter.hasListeners).toBe(true);
    emitter.dispose();
    emitter.event((value) => seen.push(value)).dispose();
    emitter.fire(1);
    expect(seen).toEqual([]);
    expect(emitter.hasListeners).toBe(false);
  });

  it('any sequence of subscribe, unsubscribe and fire calls exactly the subscribed listeners, in order', () => {
    const operation = fc.oneof(
      fc.record({ kind: fc.constant('subscribe' as const) }),
      fc.record({ kind: fc.constant('unsubscribe' as const), index: fc.nat(20) }),
      fc.record({ kind: fc.constant('fire' as const) }),
    );
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 60 }), (operations) => {
        const emitter = new Emitter<number>();
        const calls: number[] = [];
        const expected: number[] = [];
        const live: { id: number; subscription: { dispose(): void } }[] = [];
        let nextId = 0;
        for (const op of operations) {
          if (op.kind === 'subscribe') {
            const id = nextId++;
            live.push({ id, subscription: emitter.event(() => calls.push(id)) });
          } else if (op.kind === 'unsubscribe' && live.length > 0) {
            const [removed] = live.splice(op.index % live.length, 1);
            removed!.subscription.dispose();
          } else if (op.kind === 'fire') {
            expected.push(...live.map((entry) => entry.id));
            emitter.fire(0);
          }
        }
        expect(calls).toEqual(expected);
      }),
    );
  });
});

describe('DisposableStore and toDisposable', () => {
  it('disposes each item once, and late additions at once', () => {
    const released: string[] = [];
    const store = new DisposableStore();
    store.add(toDisposable(() => released.push('a')));
    const b = store.add(toDisposable(() => released.push('b')));
    store.dispose();
    store.dispose();
    b.dispose();
    store.add(toDisposable(() => released.push('late')));
    expect(released).toEqual(['a', 'b', 'late']);
  });

  it('disposes the rest when one item throws, then rethrows', () => {
    const released: string[] = [];
    const store = new DisposableStore();
    store.add({
      dispose: () => {
        throw new Error('first');
      },
    });
    store.add(toDisposable(() => released.push('second')));
    expect(() => store.dispose()).toThrow('first');
    expect(released).toEqual(['second']);
  });
});
