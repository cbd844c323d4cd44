import type { Block } from '../../../shared/blocks';
import { MAX_UNCLAIMED_BYTES } from './flowPolicy';

/** Output bytes and block events, in the order they arrived, for one pane. */
export interface PaneStreamSink {
  receiveOutput(bytes: Uint8Array): void;
  anchorBlock(block: Block): void;
}

type QueuedItem = { kind: 'output'; bytes: Uint8Array } | { kind: 'block'; block: Block };


/**
 * Delivers per-pane stream items to the pane's session, holding them while the session does
 * not exist yet (output can arrive between the engine's answer to pane.create/attach and
 * the moment the session is set up) so nothing is lost or reordered.
 */
export class PaneStreamRouter {
  private readonly sinks = new Map<number, PaneStreamSink>();
  private readonly queues = new Map<number, { items: QueuedItem[]; bytes: number }>();

  register(paneId: number, sink: PaneStreamSink): void {
    this.sinks.set(paneId, sink);
    const queue = this.queues.get(paneId);
    this.queues.delete(paneId);
    for (const item of queue?.items ?? []) this.deliver(sink, item);
  }

  unregister(paneId: number): void {
    this.sinks.delete(paneId);
    this.queues.delete(paneId);
  }

  output(paneId: number, bytes: Uint8Array): void {
    this.route(paneId, { kind: 'output', bytes });
  }

  block(block: Block): void {
    this.route(block.paneId, { kind: 'block', block });
  }

  clear(): void {
    this.sinks.clear();
    this.queues.clear();
  }

  private route(paneId: number, item: QueuedItem): void {
    const sink = this.sinks.get(paneId);
    if (sink) {
      this.deliver(sink, item);
      return;
    }
    let queue = this.queues.get(paneId);
    if (!queue) {
      queue = { items: [], bytes: 0 };
      this.queues.set(paneId, queue);
    }
    // Frames are views into transport buffers; keep a copy that outlives them.
    const stored: QueuedItem = item.kind === 'output' ? { kind: 'output', bytes: item.bytes.slice() } : item;
    queue.items.push(stored);
    queue.bytes += item.kind === 'output' ? item.bytes.byteLength : 0;
    if (queue.bytes > MAX_UNCLAIMED_BYTES) this.queues.delete(paneId);
  }

  private deliver(sink: PaneStreamSink, item: QueuedItem): void {
    if (item.kind === 'output') sink.receiveOutput(item.bytes);
    else sink.anchorBlock(item.block);
  }
}
