/**
 * The one event primitive of engine and renderer: an `Emitter` per kind of event, and
 * `Disposable`s that end a subscription (or hold any other resource) until disposed.
 */

/** Something held until disposed: a subscription, a timer, a child resource. */
export interface Disposable {
  dispose(): void;
}

/** A Disposable that runs `release` once, however often it is disposed. */
export function toDisposable(release: () => void): Disposable {
  let released = false;
  return {
    dispose() {
      if (released) return;
      released = true;
      release();
    },
  };
}

/** Disposes everything added to it, once; what is added after it was disposed is disposed at once. */
export class DisposableStore implements Disposable {
  private readonly items = new Set<Disposable>();
  private disposed = false;

  add<T extends Disposable>(item: T): T {
    if (this.disposed) item.dispose();
    else this.items.add(item);
    return item;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const items = [...this.items];
    this.items.clear();
    let failure: { error: unknown } | undefined;
    for (const item of items) {
      try {
        item.dispose();
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure) throw failure.error;
  }
}

/** Subscribes a listener; the returned Disposable unsubscribes it. */
export type Event<T> = (listener: (value: T) => void) => Disposable;

export interface EmitterOptions {
  /**
   * Where an error thrown by a listener goes. The other listeners run regardless; without
   * this option the first error is rethrown by `fire` once they all have.
   */
  onListenerError?: (error: unknown) => void;
}

/**
 * One kind of event. Listeners run in the order they subscribed. One that subscribes while
 * the event fires first hears the next one; one that unsubscribes while it fires is not
 * called any more, not even for this one.
 */
export class Emitter<T> implements Disposable {
  /** Replaced, never mutated, so a fire in progress keeps its own list. */
  private listeners: readonly ((value: T) => void)[] = [];
  private readonly subscribed = new Set<(value: T) => void>();
  private disposed = false;

  constructor(private readonly options: EmitterOptions = {}) {}

  readonly event: Event<T> = (listener) => {
    if (this.disposed) return toDisposable(() => undefined);
    // A wrapper of its own, so the same function subscribed twice is two subscriptions.
    const entry = (value: T) => listener(value);
    this.listeners = [...this.listeners, entry];
    this.subscribed.add(entry);
    return toDisposable(() => {
      this.subscribed.delete(entry);
      this.listeners = this.listeners.filter((candidate) => candidate !== entry);
    });
  };

  fire(value: T): void {
    let failure: { error: unknown } | undefined;
    for (const listener of this.listeners) {
      if (!this.subscribed.has(listener)) continue;
      try {
        listener(value);
      } catch (error) {
        if (this.options.onListenerError) this.options.onListenerError(error);
        else failure ??= { error };
      }
    }
    if (failure) throw failure.error;
  }

  get hasListeners(): boolean {
    return this.subscribed.size > 0;
  }

  dispose(): void {
    this.disposed = true;
    this.subscribed.clear();
    this.listeners = [];
  }
}
