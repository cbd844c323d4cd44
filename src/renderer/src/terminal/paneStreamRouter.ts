import type { Block } from '../../../shared/blocks';
import type { PaneEvent } from './applyPaneEvent';
import { MAX_UNCLAIMED_BYTES } from './flowPolicy';

/** Where one pane's stream goes: output bytes, block events and pane events, in arrival order. */
export interface PaneStreamSink {
  receiveOutput(bytes: Uint8Array): void;
  receiveBlock(block: Block): void;
  receivePaneEvent(event: PaneEvent): void;
}

type StreamItem = { kind: 'output'; bytes: Uint8Array } | { kind: 'block'; block: Block } | { kind: 'event'; event: PaneEvent };

/** What a held event counts against the bound (it is small; output counts its bytes). */
const EVENT_WEIGHT = 512;

/**
 * Delivers each pane's stream to the pane's sink. Everything that arrives before the pane's
 * view exists — output, blocks, its state, notices, its exit (the engine may send a new
 * pane's first events before its answer to pane.create) — waits here, in one queue per pane,
 * in order. One bound covers them all: past MAX_UNCLAIMED_BYTES the panes unclaimed longest
 * are dropped (the engine's flow control has paused them anyway).
 */
export class PaneStreamRouter {
  private readonly sinks = new Map<number, PaneStreamSink>();
  /** Insertion order is age: the first entry was left unclaimed longest. */
  private readonly queues = new Map<number, { items: StreamItem[]; weight: number }>();
  private heldWeight = 0;

  register(paneId: number, sink: PaneStreamSink): void {
    this.sinks.set(paneId, sink);
    const queue = this.takeQueue(paneId);
    for (const item of queue?.items ?? []) this.deliver(sink, item);
  }

  unregister(paneId: number): void {
    this.sinks.delete(paneId);
    this.takeQueue(paneId);
  }

  output(paneId: number, bytes: Uint8Array): void {
    this.route(paneId, { kind: 'output', bytes });
  }

  block(block: Block): void {
    this.route(block.paneId, { kind: 'block', block });
  }

  paneEvent(event: PaneEvent): void {
    this.route(event.payload.paneId, { kind: 'event', event });
  }

  clear(): void {
    this.sinks.clear();
    this.queues.clear();
    this.heldWeight = 0;
  }

  /** What is held for panes without a sink, in bytes (and events by their weight). */
  get held(): number {
    return this.heldWeight;
  }

  private route(paneId: number, item: StreamItem): void {
    const sink = this.sinks.get(paneId);
    if (sink) {
      this.deliver(sink, item);
      return;
    }
    let queue = this.queues.get(paneId);
    if (!queue) {
      queue = { items: [], weight: 0 };
      this.queues.set(paneId, queue);
    }
    // Frames are views into transport buffers; keep a copy that outlives them.
    const stored: StreamItem = item.kind === 'output' ? { kind: 'output', bytes: item.bytes.slice() } : item;
    const weight = item.kind === 'output' ? item.bytes.byteLength : EVENT_WEIGHT;
    queue.items.push(stored);
    queue.weight += weight;
    this.heldWeight += weight;
    for (const [oldest] of this.queues) {
      if (this.heldWeight <= MAX_UNCLAIMED_BYTES) break;
      this.takeQueue(oldest);
    }
  }

  private takeQueue(paneId: number): { items: StreamItem[]; weight: number } | undefined {
    const queue = this.queues.get(paneId);
    if (!queue) return undefined;
    this.queues.delete(paneId);
    this.heldWeight -= queue.weight;
    return queue;
  }

  private deliver(sink: PaneStreamSink, item: StreamItem): void {
    if (item.kind === 'output') sink.receiveOutput(item.bytes);
    else if (item.kind === 'block') sink.receiveBlock(item.block);
    else sink.receivePaneEvent(item.event);
  }
}
