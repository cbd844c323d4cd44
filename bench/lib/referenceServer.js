// The reference side of the comparisons: a tiny HTTP + WebSocket server serving a page with
// xterm.js alone (no React, no Tandem engine).
//   /ws/stream  streams a byte buffer in 64 KB binary frames with the same flow control
//               as the engine (pause above 250 KB unacknowledged, resume below 150 KB; the page
//               acknowledges from xterm's write callback)
//   /ws/pty     a bash in node-pty wired straight to the socket (no batching, no scanner,
//               no mirror): the reference for keystroke echo
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import ptyModule from 'node-pty';
import { WebSocketServer } from 'ws';
import { flowPolicy } from './engineShared.js';
import { ROOT } from './root.js';

const FILES = {
  '/': ['bench/page/reference.html', 'text/html'],
  '/reference.js': ['bench/page/reference.js', 'text/javascript'],
  '/probe.js': ['bench/page/probe.js', 'text/javascript'],
  '/xterm.js': ['node_modules/@xterm/xterm/lib/xterm.js', 'text/javascript'],
  '/xterm.css': ['node_modules/@xterm/xterm/css/xterm.css', 'text/css'],
  '/addon-unicode11.js': ['node_modules/@xterm/addon-unicode11/lib/addon-unicode11.js', 'text/javascript'],
  '/addon-webgl.js': ['node_modules/@xterm/addon-webgl/lib/addon-webgl.js', 'text/javascript'],
};

/** The engine's renderer window, the very value (src/main/pty/flowPolicy.ts). */
export const WATERMARKS = flowPolicy.RENDERER_WINDOW;

/**
 * @param {object} options
 * @param {Buffer} [options.stream]   bytes served on /ws/stream
 * @param {object} [options.ptyEnv]   environment of the bash on /ws/pty
 * @param {string} [options.ptyCwd]
 */
export async function startReferenceServer({ stream, ptyEnv, ptyCwd, frameBytes = 64 * 1024 } = {}) {
  const server = createServer((request, response) => {
    const path = new URL(request.url, 'http://x').pathname;
    const file = FILES[path];
    if (!file) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': file[1] + '; charset=utf-8', 'cache-control': 'no-store' });
    response.end(readFileSync(join(ROOT, file[0])));
  });
  const sockets = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 4 * 1024 * 1024 });
  const ptys = new Set();
  server.on('upgrade', (request, socket, head) => {
    const path = new URL(request.url, 'http://x').pathname;
    if (path !== '/ws/stream' && path !== '/ws/pty') return void socket.destroy();
    sockets.handleUpgrade(request, socket, head, (ws) => (path === '/ws/stream' ? serveStream(ws) : servePty(ws)));
  });

  function serveStream(ws) {
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      const message = JSON.parse(data.toString());
      if (message.type !== 'start') return;
      const bytes = message.limitBytes ? stream.subarray(0, message.limitBytes) : stream;
      const chunk = message.frameBytes ?? frameBytes;
      const watermarks = message.watermarks === null ? { high: Infinity, low: Infinity } : (message.watermarks ?? WATERMARKS);
      let offset = 0;
      let outstanding = 0;
      let paused = false;
      ws.send(JSON.stringify({ type: 'begin', total: bytes.length }));
      const pump = () => {
        while (!paused && offset < bytes.length) {
          const end = Math.min(bytes.length, offset + chunk);
          ws.send(bytes.subarray(offset, end), { binary: true });
          outstanding += end - offset;
          offset = end;
          if (outstanding > watermarks.high) paused = true;
        }
      };
      ws.removeAllListeners('message');
      ws.on('message', (ack, binary) => {
        if (!binary) return;
        outstanding -= Buffer.from(ack).readUInt32LE(0);
        if (paused && outstanding < watermarks.low) {
          paused = false;
          pump();
        }
      });
      pump();
    });
  }

  function servePty(ws) {
    const pty = ptyModule.spawn('/bin/bash', ['--login'], {
      name: 'xterm-256color',
      cols: 120,
      rows: 40,
      cwd: ptyCwd ?? process.env.HOME,
      env: ptyEnv ?? process.env,
      encoding: null,
    });
    ptys.add(pty);
    // Output goes out as it comes (no batching), with the engine's flow control so a flood
    // (`yes`) cannot pile up: the page acknowledges from xterm's write callback.
    let outstanding = 0;
    let paused = false;
    pty.onData((data) => {
      if (ws.readyState !== ws.OPEN) return;
      ws.send(data, { binary: true });
      outstanding += data.length;
      if (!paused && outstanding > WATERMARKS.high) {
        paused = true;
        pty.pause();
      }
    });
    pty.onExit(() => {
      ptys.delete(pty);
      ws.close();
    });
    ws.on('message', (data, isBinary) => {
      if (isBinary) {
        pty.write(Buffer.from(data).toString('utf8'));
        return;
      }
      const message = JSON.parse(data.toString());
      if (message.type === 'resize') pty.resize(message.cols, message.rows);
      else if (message.type === 'ack') {
        outstanding = Math.max(0, outstanding - message.bytes);
        if (paused && outstanding < WATERMARKS.low) {
          paused = false;
          pty.resume();
        }
      }
    });
    ws.on('close', () => {
      try {
        pty.kill();
      } catch {
        // already gone
      }
    });
  }

  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = server.address().port;
  return {
    url: `http://127.0.0.1:${port}/`,
    ptyPids: () => [...ptys].map((p) => p.pid),
    async stop() {
      for (const pty of ptys) {
        try {
          pty.kill();
        } catch {
          // gone
        }
      }
      for (const client of sockets.clients) client.terminate();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
