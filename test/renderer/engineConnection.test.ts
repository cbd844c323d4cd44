import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FrameKind, decodeAckCount, decodeFrame, encodeFrame } from '../../src/shared/protocol';
import type { Channel } from '../../src/renderer/src/transport/channel';
import { importRendererModule } from './support/rendererModule';

type EngineConnectionModule = typeof import('../../src/renderer/src/transport/engineConnection');
type Status = import('../../src/renderer/src/transport/engineConnection').ConnectionStatus;

class FakeChannel implements Channel {
  sent: (string | Uint8Array)[] = [];
  closed = false;
  onmessage: Channel['onmessage'] = null;
  onclose: Channel['onclose'] = null;
  send(data: string | Uint8Array) {
    if (!this.closed) this.sent.push(data);
  }
  close() {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.('closed');
  }
  /** The engine side hangs up. */
  drop(reason = 'engine went away') {
    this.closed = true;
    this.onclose?.(reason);
  }
  receive(message: unknown) {
    this.onmessage?.(typeof message === 'string' || message instanceof Uint8Array ? message : JSON.stringify(message));
  }
  requests(): { id: number; method: string; params: unknown }[] {
    return this.sent.filter((data): data is string => typeof data === 'string').map((text) => JSON.parse(text));
  }
}

/** A channel factory whose attempts the test resolves or rejects by hand. */
function controllableFactory() {
  const attempts: { resolve: (channel: Channel) => void; reject: (error: Error) => void }[] = [];
  const open = () => new Promise<Channel>((resolve, reject) => attempts.push({ resolve, reject }));
  return { open, attempts };
}

let module: EngineConnectionModule;

beforeEach(async () => {
  vi.useFakeTimers();
  vi.stubGlobal('window', globalThis);
  module = await importRendererModule<EngineConnectionModule>('transport/engineConnection.ts');
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

async function openConnection() {
  const channel = new FakeChannel();
  const statuses: [Status, string | undefined][] = [];
  const connection = new module.EngineConnection(async () => channel);
  connection.onStatus((status, detail) => statuses.push([status, detail]));
  connection.start();
  await vi.waitFor(() => expect(connection.status).toBe('open'));
  return { connection, channel, statuses };
}

describe('EngineConnection', () => {
  it('answers requests by id, in any order, and turns engine errors into EngineRequestError', async () => {
    const { connection, channel, statuses } = await openConnection();
    expect(statuses).toEqual([['open', undefined]]);
    const hello = connection.request('hello', {});
    const blocks = connection.request('pane.blocks', { paneId: 3 });
    const [first, second] = channel.requests();
    expect(first).toEqual({ id: 1, method: 'hello', params: {} });
    expect(second).toEqual({ id: 2, method: 'pane.blocks', params: { paneId: 3 } });

    channel.receive({ id: 2, error: { message: 'no such pane', code: 'not-found' } });
    channel.receive({ id: 1, result: { ok: true } });
    await expect(hello).resolves.toEqual({ ok: true });
    const error = await blocks.catch((problem: unknown) => problem);
    expect(error).toBeInstanceOf(module.EngineRequestError);
    expect(error).toMatchObject({ message: 'no such pane', code: 'not-found' });

    // Unknown ids, malformed JSON and non-objects are ignored without throwing.
    expect(() => {
      channel.receive({ id: 99, result: 1 });
      channel.receive('{not json');
      channel.receive('42');
    }).not.toThrow();
  });

  it('refuses requests while not connected', async () => {
    const connection = new module.EngineConnection(controllableFactory().open);
    await expect(connection.request('hello', {})).rejects.toMatchObject({ code: 'disconnected' });
  });

  it('delivers events to every listener, even when one throws, and unsubscribes', async () => {
    const { connection, channel } = await openConnection();
    const seen: unknown[] = [];
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    connection.on('pane.state', () => {
      throw new Error('broken listener');
    });
    const subscription = connection.on('pane.state', (payload) => seen.push(payload));
    channel.receive({ event: 'pane.state', payload: { paneId: 1 } });
    subscription.dispose();
    channel.receive({ event: 'pane.state', payload: { paneId: 2 } });
    expect(seen).toEqual([{ paneId: 1 }]);
  });

  it('hands output frames to output listeners and ignores other binary frames', async () => {
    const { connection, channel } = await openConnection();
    const outputs: [number, number[]][] = [];
    connection.onOutput((paneId, bytes) => outputs.push([paneId, [...bytes]]));
    channel.receive(encodeFrame(FrameKind.Output, 7, new Uint8Array([104, 105])));
    channel.onmessage?.(encodeFrame(FrameKind.Output, 8, new Uint8Array([1])).buffer as ArrayBuffer);
    channel.receive(encodeFrame(FrameKind.Input, 7, new Uint8Array([1])));
    channel.receive(new Uint8Array([1, 2]));
    expect(outputs).toEqual([
      [7, [104, 105]],
      [8, [1]],
    ]);
  });

  it('sends input as UTF-8 input frames at once and acks as counts; nothing for empty input', async () => {
    const { connection, channel } = await openConnection();
    connection.sendInput(4, 'é\r');
    connection.sendInput(4, '');
    connection.sendInput(5, new Uint8Array([3]));
    connection.sendAck(4, 70_000);
    connection.sendAck(4, 0);
    const frames = channel.sent.filter((data): data is Uint8Array => data instanceof Uint8Array).map((data) => decodeFrame(data)!);
    expect(frames.map((frame) => [frame.kind, frame.paneId])).toEqual([
      [FrameKind.Input, 4],
      [FrameKind.Input, 5],
      [FrameKind.Ack, 4],
    ]);
    expect(new TextDecoder().decode(frames[0]!.payload)).toBe('é\r');
    expect(decodeAckCount(frames[2]!.payload)).toBe(70_000);
  });

  it('on a lost connection fails pending requests, reconnects with backoff and reports open again', async () => {
    const factory = controllableFactory();
    const connection = new module.EngineConnection(factory.open);
    const statuses: Status[] = [];
    connection.onStatus((status) => statuses.push(status));
    connection.start();
    const first = new FakeChannel();
    factory.attempts[0]!.resolve(first);
    await vi.waitFor(() => expect(connection.status).toBe('open'));

    const pending = connection.request('hello', {});
    first.drop();
    await expect(pending).rejects.toMatchObject({ code: 'disconnected' });
    expect(connection.status).toBe('reconnecting');
    expect(factory.attempts).toHaveLength(1);

    await vi.advanceTimersByTimeAsync(250);
    expect(factory.attempts).toHaveLength(2);
    factory.attempts[1]!.reject(new Error('refused'));
    await vi.advanceTimersByTimeAsync(499);
    expect(factory.attempts).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(factory.attempts).toHaveLength(3);
    const second = new FakeChannel();
    factory.attempts[2]!.resolve(second);
    await vi.waitFor(() => expect(connection.status).toBe('open'));
    expect(statuses[0]).toBe('open');
    expect(statuses.at(-1)).toBe('open');
    // Requests go over the new channel.
    void connection.request('hello', {});
    expect(second.requests()).toHaveLength(1);
  });

  it('reports every failed attempt while reconnecting, so the UI can count them', async () => {
    const factory = controllableFactory();
    const connection = new module.EngineConnection(factory.open);
    const reports: [Status, string | undefined][] = [];
    connection.onStatus((status, detail) => reports.push([status, detail]));
    connection.start();
    for (let attempt = 0; attempt < 4; attempt++) {
      await vi.waitFor(() => expect(factory.attempts).toHaveLength(attempt + 1));
      factory.attempts[attempt]!.reject(new Error(`refused ${attempt}`));
      await vi.advanceTimersByTimeAsync(5_000);
    }
    const reconnecting = reports.filter(([status]) => status === 'reconnecting');
    expect(reconnecting.map(([, detail]) => detail)).toEqual(['refused 0', 'refused 1', 'refused 2', 'refused 3']);
  });

  it('a refused access token (browser mode) stops the retries and says which: missing or wrong', async () => {
    const { ChannelRefusedError } = await importRendererModule<typeof import('../../src/renderer/src/transport/channel')>('transport/channel.ts');
    for (const [tokenMissing, detail] of [
      [true, 'missing-token'],
      [false, 'wrong-token'],
    ] as const) {
      const factory = controllableFactory();
      const connection = new module.EngineConnection(factory.open);
      const reports: [Status, string | undefined][] = [];
      connection.onStatus((status, reported) => reports.push([status, reported]));
      connection.start();
      await vi.waitFor(() => expect(factory.attempts).toHaveLength(1));
      factory.attempts[0]!.reject(new ChannelRefusedError(tokenMissing));
      await vi.advanceTimersByTimeAsync(30_000);
      expect(factory.attempts).toHaveLength(1);
      expect(connection.status).toBe('refused');
      expect(reports).toEqual([['refused', detail]]);
    }
  });

  it('after "connection.replaced" stays replaced instead of fighting back, until reconnectNow', async () => {
    const factory = controllableFactory();
    const connection = new module.EngineConnection(factory.open);
    connection.start();
    const first = new FakeChannel();
    factory.attempts[0]!.resolve(first);
    await vi.waitFor(() => expect(connection.status).toBe('open'));
    first.receive({ event: 'connection.replaced', payload: {} });
    first.drop('replaced');
    expect(connection.status).toBe('replaced');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(factory.attempts).toHaveLength(1);

    connection.reconnectNow();
    expect(factory.attempts).toHaveLength(2);
    factory.attempts[1]!.resolve(new FakeChannel());
    await vi.waitFor(() => expect(connection.status).toBe('open'));
  });

  it('reconnectNow while an attempt is in flight ends up with one live channel', async () => {
    const factory = controllableFactory();
    const connection = new module.EngineConnection(factory.open);
    const outputs: number[] = [];
    connection.onOutput((paneId) => outputs.push(paneId));
    connection.start();
    factory.attempts[0]!.reject(new Error('refused'));
    await vi.advanceTimersByTimeAsync(250);
    expect(factory.attempts).toHaveLength(2);
    // The user clicks "Retry now" while the second attempt is still connecting.
    connection.reconnectNow();
    expect(factory.attempts).toHaveLength(3);
    const stale = new FakeChannel();
    const fresh = new FakeChannel();
    factory.attempts[2]!.resolve(fresh);
    factory.attempts[1]!.resolve(stale);
    await vi.waitFor(() => expect(connection.status).toBe('open'));
    await vi.advanceTimersByTimeAsync(0);

    // Only one channel may stay open and deliver: two would duplicate every output frame.
    expect([stale.closed, fresh.closed].filter((closed) => !closed)).toHaveLength(1);
    const live = stale.closed ? fresh : stale;
    live.receive(encodeFrame(FrameKind.Output, 1, new Uint8Array([65])));
    stale.onmessage?.(encodeFrame(FrameKind.Output, 2, new Uint8Array([66])));
    fresh.onmessage?.(encodeFrame(FrameKind.Output, 3, new Uint8Array([67])));
    expect(outputs.filter((paneId) => paneId !== 1)).toHaveLength(1);
    void connection.request('hello', {});
    expect(live.requests()).toHaveLength(1);
  });
});
