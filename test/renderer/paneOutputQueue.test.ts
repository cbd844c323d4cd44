import { Terminal as HeadlessTerminal } from '@xterm/headless';
import { describe, expect, it, vi } from 'vitest';
import { PaneOutputQueue, type OutputGate } from '../../src/renderer/src/terminal/paneOutputQueue';

const encode = (text: string) => new TextEncoder().encode(text);
const decode = (data: string | Uint8Array) => (typeof data === 'string' ? data : new TextDecoder().decode(data));

/** A real xterm parser behind the queue, recording what the queue writes and acknowledges. */
function setup(gate: OutputGate = openGate()) {
  const headless = new HeadlessTerminal({ cols: 20, rows: 5, allowProposedApi: true });
  const writes: string[] = [];
  const acks: number[] = [];
  const terminal = {
    write(data: string | Uint8Array, callback?: () => void) {
      writes.push(decode(data));
      headless.write(data, callback);
    },
  };
  const queue = new PaneOutputQueue(terminal, () => 7, (paneId, count) => acks.push(paneId === 7 ? count : -1), gate);
  const cursor = () => ({ x: headless.buffer.active.cursorX, y: headless.buffer.active.cursorY });
  /** Resolves once xterm has parsed everything queued so far. */
  const settled = () => new Promise<void>((resolve) => queue.event(resolve));
  return { headless, queue, writes, acks, cursor, settled };
}

function openGate(): OutputGate {
  return { writeAllowance: () => Infinity, whenWritable: () => undefined, outputWritten: () => undefined };
}

/** A gate that holds output until `open(allowance)` is called. */
function heldGate() {
  let allowance = 0;
  const waiting: (() => void)[] = [];
  const written: number[] = [];
  const gate: OutputGate = {
    writeAllowance: () => allowance,
    whenWritable: (callback) => waiting.push(callback),
    outputWritten: (paneId) => written.push(paneId),
  };
  return {
    gate,
    written,
    open(next: number) {
      allowance = next;
      waiting.splice(0).forEach((callback) => callback());
    },
  };
}

describe('PaneOutputQueue', () => {
  it('applies an event only once xterm has parsed every byte before it: the cursor is at the event', async () => {
    const { queue, cursor, settled } = setup();
    const seen: { x: number; y: number }[] = [];
    queue.output(encode('abc\r\n'));
    queue.output(encode('de'));
    queue.event(() => seen.push(cursor()));
    // xterm parses asynchronously: nothing has been applied yet.
    expect(seen).toEqual([]);
    queue.output(encode('fgh'));
    await settled();
    expect(seen).toEqual([{ x: 2, y: 1 }]);
    expect(cursor()).toEqual({ x: 5, y: 1 });
  });

  it('an event with nothing before it applies at once', () => {
    const { queue } = setup();
    let applied = false;
    queue.event(() => (applied = true));
    expect(applied).toBe(true);
  });

  it('joins output that arrives while xterm is busy into one write, cut at events, each write acknowledged', async () => {
    const { queue, writes, acks, settled } = setup();
    queue.output(encode('one'));
    queue.output(encode('two'));
    queue.output(encode('three'));
    queue.event(() => writes.push('<event>'));
    queue.output(encode('four'));
    queue.output(encode('five'));
    await settled();
    expect(writes).toEqual(['one', 'twothree', '<event>', 'fourfive']);
    expect(acks).toEqual([3, 8, 8]);
  });

  it("Tandem's own text waits for the output before it and is never acknowledged", async () => {
    const { queue, writes, acks, headless, settled } = setup();
    queue.output(encode('out'));
    queue.output(encode('put'));
    queue.text('\r\n[exited]');
    queue.output(encode('\r\nmore'));
    await settled();
    expect(writes).toEqual(['out', 'put', '\r\n[exited]', '\r\nmore']);
    expect(acks).toEqual([3, 3, 6]);
    expect(headless.buffer.active.getLine(1)?.translateToString(true)).toBe('[exited]');
  });

  it('while another pane is typed in, output and the events behind it wait, then go in slices in order', async () => {
    const held = heldGate();
    const { queue, writes, acks, settled } = setup(held.gate);
    const events: string[] = [];
    queue.output(encode('0123456789'));
    queue.event(() => events.push('block'));
    queue.output(encode('after'));
    expect(writes).toEqual([]);
    expect(events).toEqual([]);
    held.open(4);
    await settled();
    expect(writes).toEqual(['0123', '4567', '89', 'afte', 'r']);
    expect(acks).toEqual([4, 4, 2, 4, 1]);
    expect(events).toEqual(['block']);
    expect(held.written).toEqual([7, 7, 7, 7, 7]);
  });

  it('a failing event does not stop the stream; dropStream keeps only text; dispose stops everything', async () => {
    const { queue, writes, acks, headless, settled } = setup();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    queue.output(encode('a'));
    queue.event(() => {
      throw new Error('bad event');
    });
    queue.output(encode('b'));
    await settled();
    expect(writes).toEqual(['a', 'b']);
    expect(logged).toHaveBeenCalledOnce();
    logged.mockRestore();

    queue.output(encode('c'));
    queue.output(encode('old pane'));
    queue.event(() => writes.push('<old event>'));
    queue.text('[kept]');
    queue.dropStream();
    await settled();
    expect(writes).toEqual(['a', 'b', 'c', '[kept]']);

    queue.output(encode('d'));
    queue.dispose();
    queue.output(encode('e'));
    // Once xterm has parsed 'd': it was not acknowledged, and 'e' never went in.
    await new Promise<void>((resolve) => headless.write('', resolve));
    expect(writes).toEqual(['a', 'b', 'c', '[kept]', 'd']);
    expect(acks).toEqual([1, 1, 1]);
  });

  it('a slice is bytes, not writes: output cut by an event into separate frames costs one slice', async () => {
    // A background pane's slice of this interval: 4096 bytes, used up by what it writes.
    let left = 4096;
    let asked = 0;
    const gate: OutputGate = {
      writeAllowance: () => {
        asked++;
        return left;
      },
      whenWritable: () => undefined,
      outputWritten: (_paneId, bytes) => (left -= bytes),
    };
    const { queue, writes, settled } = setup(gate);
    const events: string[] = [];
    queue.output(encode('\r'));
    await settled();
    // The rest of the redrawn prompt arrives in a frame of its own, after its mark's event.
    queue.event(() => events.push('prompt'));
    queue.output(encode('$ '));
    await settled();
    expect(writes).toEqual(['\r', '$ ']);
    expect(events).toEqual(['prompt']);
    expect(asked).toBe(2);
    expect(left).toBe(4096 - 3);
  });
});
