// A protocol-level client of `tandem web` over its WebSocket: what the renderer does, minus
// the UI, with the engine's own frame encoding (src/shared/protocol.ts).
import { WebSocket } from 'ws';
import { protocol } from './engineShared.js';

/** Output ends with our PS1 (`$ `), ignoring the shell integration's OSC marks around it. */
export const atPrompt = (out) => out.replace(/\x1b\][^\x07\x1b]*(\x07|\x1b\\)/g, '').endsWith('$ ');

const { FrameKind, decodeFrame, encodeAck, encodeFrame } = protocol;
export { FrameKind, encodeAck, encodeFrame };

export class EngineClient {
  /** Called with (paneId, Buffer) for each Output frame, before it is acknowledged. */
  onOutput = () => {};
  /** Called with (event, payload). */
  onEvent = () => {};
  autoAck = true;
  #ws;
  #nextId = 1;
  #pending = new Map();

  static async connect(server) {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=${server.token}`, {
      headers: { origin: `http://127.0.0.1:${server.port}` },
      perMessageDeflate: false,
    });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    return new EngineClient(ws);
  }

  constructor(ws) {
    this.#ws = ws;
    ws.on('message', (data, isBinary) => {
      if (isBinary) {
        const frame = decodeFrame(data);
        if (frame?.kind !== FrameKind.Output) return;
        const { paneId } = frame;
        const payload = Buffer.from(frame.payload.buffer, frame.payload.byteOffset, frame.payload.byteLength);
        this.onOutput(paneId, payload);
        if (this.autoAck) ws.send(encodeAck(paneId, payload.length));
        return;
      }
      const message = JSON.parse(data.toString('utf8'));
      if ('id' in message) {
        const waiter = this.#pending.get(message.id);
        this.#pending.delete(message.id);
        if (message.error) waiter?.reject(new Error(message.error.message));
        else waiter?.resolve(message.result);
      } else {
        this.onEvent(message.event, message.payload);
      }
    });
  }

  request(method, params = {}) {
    const id = this.#nextId++;
    this.#ws.send(JSON.stringify({ id, method, params }));
    return new Promise((resolve, reject) => this.#pending.set(id, { resolve, reject }));
  }

  type(paneId, text) {
    this.#ws.send(encodeFrame(FrameKind.Input, paneId, Buffer.from(text, 'utf8')));
  }

  /** Acknowledges `count` bytes of pane `paneId` (when autoAck is off). */
  ack(paneId, count) {
    this.#ws.send(encodeAck(paneId, count));
  }

  close() {
    this.#ws.close();
  }
}
