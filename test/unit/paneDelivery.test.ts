import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { Block } from '../../src/shared/blocks';
import { PtyThrottle } from '../../src/main/pty/flowControl';
import { BATCH_MAX_BYTES, PACE_WHILE_OUTPUT_WITHIN_MS, RENDERER_WINDOW } from '../../src/main/pty/flowPolicy';
import { PaneDelivery, type PaneListener } from '../../src/main/panes/paneDelivery';
import { TypingActivity } from '../../src/main/panes/typingActivity';

const eventually = (assertion: () => void) => vi.waitFor(assertion, { timeout: 5_000, interval: 5 });

type Received = { bytes: string } | { event: string; offset: number };

/** A client that records what reaches it and where in the byte stream each event fell. */
function client() {
  const received: Received[] = [];
  let bytesSoFar = 0;
  const listener: PaneListener = {
    output: (_paneId, bytes) => {
      bytesSoFar += bytes.length;
      const last = received.at(-1);
      if (last && 'bytes' in last) last.bytes += Buffer.from(bytes).toString('latin1');
      else received.push({ bytes: Buffer.from(bytes).toString('latin1') });
    },
    event: (event) => received.push({ event, offset: bytesSoFar }),
  };
  const bytes = () => received.map((item) => ('bytes' in item ? item.bytes : '')).join('');
  const events = () => received.filter((item): item is { event: string; offset: number } => 'event' in item);
  return { listener, received, bytes, events };
}

function delivery() {
  const throttle = new PtyThrottle(
    () => undefined,
    () => undefined,
  );
  return new PaneDelivery(1, throttle);
}

const block = { id: 'p1b1', paneId: 1 } as Block;

describe('PaneDelivery', () => {
  it('sends each event right after the bytes before its offset, whatever the chunking', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ minLength: 1, maxLength: 300 }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        async (chunks, picks) => {
          const target = delivery();
          const seen = client();
          target.attach(seen.listener);
          const total = chunks.reduce((sum, chunk) => sum + Buffer.byteLength(chunk, 'latin1'), 0);
          const offsets = picks.map((pick) => pick % (total + 1)).sort((a, b) => a - b);
          let received = 0;
          for (const chunk of chunks) {
            const bytes = Buffer.from(chunk, 'latin1');
            // As the pane does: marks inside a chunk are announced before the chunk is handed on.
            for (const offset of offsets.filter((offset) => offset > received && offset <= received + bytes.length)) {
              target.event('block.started', block, offset);
            }
            received += bytes.length;
            target.output(bytes);
          }
          await eventually(() => expect(seen.bytes().length).toBe(total));
          expect(seen.bytes()).toBe(chunks.join(''));
          expect(seen.events().map((event) => event.offset)).toEqual(offsets.filter((offset) => offset > 0));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('holds an event behind bytes the client has no room for yet', async () => {
    const target = delivery();
    const seen = client();
    target.attach(seen.listener);
    const flood = Buffer.alloc(RENDERER_WINDOW.high * 2, 0x61);
    target.event('block.finished', block, flood.length);
    target.output(flood);
    await eventually(() => expect(seen.bytes().length).toBeGreaterThan(0));
    expect(seen.events()).toEqual([]);
    // The client parses what it has; the rest, then the event, follow.
    while (seen.bytes().length < flood.length) {
      target.acknowledge(seen.bytes().length);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await eventually(() => expect(seen.events()).toEqual([{ event: 'block.finished', offset: flood.length }]));
  });

  it('puts an event raised now before a character still incomplete, and does not stall', async () => {
    const target = delivery();
    const seen = client();
    target.attach(seen.listener);
    const smile = Buffer.from('ok 🙂', 'utf8');
    target.output(smile.subarray(0, smile.length - 2));
    target.event('pane.state', { paneId: 1, state: 'PROMPT', cwd: '/', integration: true }, smile.length - 2);
    target.output(smile.subarray(smile.length - 2));
    await eventually(() => expect(seen.bytes().length).toBe(smile.length));
    expect(seen.events()).toEqual([{ event: 'pane.state', offset: 3 }]);
  });

  it('on re-attach gives the new client none of the output the snapshot holds and hands over what came meanwhile, in order', async () => {
    const target = delivery();
    const first = client();
    target.attach(first.listener);
    target.output(Buffer.from('old'));
    target.beginReattach();
    target.event('block.started', block, 5);
    target.output(Buffer.from('new!!'));
    target.event('pane.state', { paneId: 1, state: 'EXECUTING', cwd: '/', integration: true }, 8);
    // The batcher's flush (on the next turn) goes into the held queue.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    const second = client();
    target.endReattach(second.listener);
    await eventually(() => expect(second.bytes()).toBe('new!!'));
    expect(second.events()).toEqual([
      { event: 'block.started', offset: 2 },
      { event: 'pane.state', offset: 5 },
    ]);
    // The client being replaced got what was read before the snapshot, nothing after it.
    expect(first.bytes()).toBe('old');
  });

  it('calls back once the client has acknowledged all it was sent and nothing waits; at once without a client or when it goes', async () => {
    const target = delivery();
    const seen = client();
    target.attach(seen.listener);
    target.output(Buffer.from('earlier'));
    target.sendNow();
    const calls: string[] = [];
    target.whenCaughtUp(() => calls.push('caught up'));
    target.output(Buffer.from('echo'));
    target.acknowledge(7);
    // 'echo' is still waiting to be sent.
    expect(calls).toEqual([]);
    target.sendNow();
    expect(seen.bytes()).toBe('earlierecho');
    target.acknowledge(3);
    expect(calls).toEqual([]);
    target.acknowledge(1);
    expect(calls).toEqual(['caught up']);

    target.whenCaughtUp(() => calls.push('already'));
    expect(calls).toEqual(['caught up', 'already']);
    calls.pop();

    target.output(Buffer.from('more'));
    target.sendNow();
    const cancelled = target.whenCaughtUp(() => calls.push('cancelled'));
    cancelled();
    target.acknowledge(4);
    target.output(Buffer.from('more'));
    target.sendNow();
    const leaving = target.whenCaughtUp(() => calls.push('client gone'));
    expect(leaving).toBeTypeOf('function');
    target.detach(seen.listener);
    expect(calls).toEqual(['caught up', 'client gone']);

    target.whenCaughtUp(() => calls.push('no client'));
    expect(calls).toHaveLength(2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual(['caught up', 'client gone', 'no client']);
  });
});

describe('PaneDelivery skipping a plain flood its client fell behind on', () => {
  /** A client that never acknowledges: its window stays full, so everything after it waits. */
  function stalledClient(skipAtLeast: number) {
    const throttle = new PtyThrottle(
      () => undefined,
      () => undefined,
    );
    let received = 0;
    const screen = { cols: () => 20, rows: () => 3, scrollback: () => 10, parsedScreen: () => ({ offset: received, plain: true }) };
    const pane = new PaneDelivery(1, throttle, screen, { window: { high: 700, low: 300 }, skipAtLeast, cutsApart: 1 });
    const skipped: number[] = [];
    const sent = { bytes: 0, prefixes: 0, frames: 0 };
    pane.attach({
      output: (_paneId, bytes) => {
        sent.bytes += bytes.length;
        sent.frames++;
      },
      event: (event, payload) => {
        if (event !== 'pane.skipped') return;
        skipped.push((payload as { bytes: number }).bytes);
        sent.prefixes += (payload as { prefixBytes: number }).prefixBytes;
      },
    });
    const line = (i: number) => new TextEncoder().encode(`line ${String(i).padStart(5, '0')}\r\n`);
    // One line per read, each after the batcher had its turn, as reads from a pty come.
    const print = async (from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const bytes = line(i);
        received += bytes.length;
        pane.output(bytes);
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    return { pane, skipped, print, lineBytes: line(0).length, sent, printed: () => received };
  }

  /**
   * A pane whose client never acknowledges by itself, fed 40-character lines: what it was sent
   * (bytes and frame sizes), and what the skips left out (`accounted`: skipped minus the prefixes written in their place).
   */
  function lineFlood(scrollback: number, window: { high: number; low: number }) {
    const throttle = new PtyThrottle(
      () => undefined,
      () => undefined,
    );
    let printed = 0;
    const screen = { cols: () => 80, rows: () => 3, scrollback: () => scrollback, parsedScreen: () => ({ offset: printed, plain: true }) };
    const pane = new PaneDelivery(1, throttle, screen, { window, skipAtLeast: 1_000, cutsApart: 1 });
    const seen = { sent: 0, frames: [] as number[], accounted: 0 };
    pane.attach({
      output: (_paneId, bytes) => {
        seen.sent += bytes.length;
        seen.frames.push(bytes.length);
      },
      event: (event, payload) => {
        if (event !== 'pane.skipped') return;
        const { bytes, prefixBytes } = payload as { bytes: number; prefixBytes: number };
        seen.accounted += bytes - prefixBytes;
      },
    });
    const print = (bytes: Uint8Array) => {
      printed += bytes.length;
      pane.output(bytes);
    };
    const line = new TextEncoder().encode(`${'x'.repeat(40)}\r\n`);
    /** `count` lines, the batcher getting its turn every 50 (reads from a pty come like that). */
    const flood = async (count: number) => {
      for (let i = 0; i < count; i++) {
        print(line);
        if (i % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    };
    return { pane, seen, print, line, flood, printed: () => printed };
  }

  it('cuts the backlog once a cut is worth making, and keeps only what may stay visible', async () => {
    const { skipped, print, lineBytes } = stalledClient(2_000);
    // After every line a cut is possible but smaller than 2,000 bytes, until enough have piled up.
    await print(0, 600);
    expect(skipped.length).toBeGreaterThan(0);
    // Scrollback 10 + 2 screens of 3 + 1 lines must stay; the first cut may start only once the window's frames are out.
    const waiting = 600 * lineBytes - 700 - skipped.reduce((sum, bytes) => sum + bytes, 0);
    expect(waiting).toBeLessThan(2_000 + 20 * lineBytes);
  });

  it('sends what is left at once when the shell exits, even while a flood is paced', async () => {
    // What a cut keeps (1,000 lines of scrollback: 42 KB) is more than a paced frame.
    const { pane, seen, print, line, flood, printed } = lineFlood(1_000, { high: 84_000, low: 42_000 });
    // Past the window (a whole number of lines) without an acknowledgement: the client is behind, cuts are made, the flood is paced.
    await flood(6_000);
    expect(seen.accounted).toBeGreaterThan(0);
    // Output this moment (the pace holds while output keeps coming), then the client catches up.
    print(line);
    pane.acknowledge(pane.outstanding);
    // One paced frame went; the rest waits for the next frame's turn.
    expect(seen.sent + seen.accounted).toBeLessThan(printed());
    pane.acknowledge(pane.outstanding);
    pane.flushAll();
    expect(seen.sent + seen.accounted).toBe(printed());
    pane.discardPending();
  });

  it('sends what a cut kept in one piece, past the window, after a key into the flood (xterm paints only between writes)', async () => {
    const { pane, skipped, print, sent, printed } = stalledClient(2_000);
    await print(0, 600);
    const framesBefore = sent.frames;
    pane.userInput();
    // The client never acknowledges, so its window stays full; the kept lines go all the same, in one frame (one write).
    expect(sent.bytes - sent.prefixes + skipped.reduce((sum, bytes) => sum + bytes, 0)).toBe(printed());
    expect(sent.frames - framesBefore).toBe(1);
  });

  it('sends what a cut kept in one piece, past the window, once the flood is over, and not while it only pauses', async () => {
    // What a cut keeps (6,000 lines of scrollback: 252 KB) is 24 windows (of 250 whole lines), and more than a frame (200 KB).
    const { pane, seen, print, flood, printed } = lineFlood(6_000, { high: 10_500, low: 5_250 });
    await flood(20_000);
    expect(seen.accounted).toBeGreaterThan(0);
    // The flood pauses (the pace holds only while output keeps coming); the client has parsed what it got.
    await new Promise((resolve) => setTimeout(resolve, PACE_WHILE_OUTPUT_WITHIN_MS + 10));
    pane.acknowledge(pane.outstanding);
    // Only a window's worth: the flood may go on, and what it kept scroll away yet.
    expect(printed() - (seen.sent + seen.accounted)).toBeGreaterThan(15_000);
    // It is over: the prompt (not plain text) follows. Everything kept goes now, in one piece,
    // though it is more than the window; what came after the last cut (less than a cut's worth)
    // may wait for the next acknowledgement.
    const framesBefore = seen.frames.length;
    print(new TextEncoder().encode('\x1b]133;A\x07$ '));
    pane.acknowledge(pane.outstanding);
    expect(printed() - (seen.sent + seen.accounted)).toBeLessThan(2_000);
    // In one frame (xterm parses it in one write, with one paint after), larger than a frame may be otherwise.
    expect(seen.frames[framesBefore]).toBeGreaterThan(BATCH_MAX_BYTES);
    pane.discardPending();
  });

  it('a key into a paced flood finds a line end to cut at: paced frames after a cut end at line ends', async () => {
    // What a cut keeps (1,000 lines of scrollback: 42 KB) is more than a paced frame (16 KB) and
    // less than a flood's backlog (64 KB): a frame of it used to end inside a line.
    const { pane, seen, print, line, flood, printed } = lineFlood(1_000, { high: 84_000, low: 42_000 });
    await flood(6_000);
    expect(seen.accounted).toBeGreaterThan(0);
    // The client parsed what it got: the next paced frame goes.
    pane.acknowledge(pane.outstanding);
    const framesBefore = seen.frames.length;
    expect(framesBefore).toBeGreaterThan(0);
    for (let i = 0; i < 2_000; i++) print(line);
    const sentBeforeKey = seen.sent;
    pane.userInput();
    // After the key only what must stay visible goes: the buffer, two screens and a line (and the line a frame may have begun).
    const keep = (1_000 + 2 * 3 + 2) * line.length;
    expect(seen.sent - sentBeforeKey).toBeLessThanOrEqual(keep);
    expect(printed() - (seen.sent + seen.accounted)).toBe(0);
    pane.discardPending();
  });

  it('a key into the flood drops every line it can, however few (cuts too small to make before did not forget their line ends)', async () => {
    const { pane, skipped, print, lineBytes } = stalledClient(2_000);
    await print(0, 700);
    const before = skipped.length;
    pane.userInput();
    expect(skipped.length).toBe(before + 1);
    // What was left waiting: the lines that must stay, give or take a line.
    const waiting = 700 * lineBytes - 700 - skipped.reduce((sum, bytes) => sum + bytes, 0);
    expect(waiting).toBeLessThanOrEqual(19 * lineBytes);
  });
});

describe('PaneDelivery reading a flood while the user types into another pane', () => {
  it('reads a skippable flood ahead as far as any flood while keys go elsewhere, and at full speed again once they stop', async () => {
    const typing = new TypingActivity();
    const throttle = new PtyThrottle(
      () => undefined,
      () => undefined,
    );
    let received = 0;
    // A buffer of 20,000 lines: what a cut keeps is worth reading ahead for (skipAtLeast keeps cuts out of the way).
    const screen = { cols: () => 80, rows: () => 24, scrollback: () => 20_000, parsedScreen: () => ({ offset: received, plain: true }) };
    const pane = new PaneDelivery(1, throttle, screen, { window: { high: 700, low: 300 }, skipAtLeast: 1e9, cutsApart: 64 }, typing);
    pane.attach({ output: () => undefined, event: () => undefined });
    const lines = new TextEncoder().encode(Array.from({ length: 100 }, (_, i) => `flood line ${String(i).padStart(4, '0')}\r\n`).join(''));
    // 400 KB of short lines (well over READ_AHEAD_COST in parse cost) that the client never acknowledges.
    for (let i = 0; i < 200; i++) {
      received += lines.length;
      pane.output(lines);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(throttle.isPaused).toBe(false);
    typing.typed(2);
    expect(throttle.isPaused).toBe(true);
    // Keys into the flooding pane itself are not keys elsewhere (they have their own rule).
    expect(typing.typingElsewhere(2)).toBe(false);
    await vi.waitFor(() => expect(throttle.isPaused).toBe(false), { timeout: 5_000, interval: 20 });
    pane.discardPending();
  });
});
