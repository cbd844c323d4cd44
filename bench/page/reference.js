// xterm.js alone, configured like a Tandem pane (options passed in by the bench), fed
// either by a byte stream with ack-based flow control or by a bash over a WebSocket.
(() => {
  const terminals = new Map();
  let nextId = 1;

  function createTerminal(options = {}) {
    const { cols = 120, rows = 40, hidden = false, webgl = false, ...rest } = options;
    const host = document.createElement('div');
    host.className = 'term';
    if (hidden) host.style.display = 'none';
    document.body.appendChild(host);
    const term = new window.Terminal({ cols, rows, allowProposedApi: true, scrollback: 10_000, ...rest });
    term.loadAddon(new window.Unicode11Addon.Unicode11Addon());
    term.unicode.activeVersion = '11';
    term.open(host);
    // Like Tandem's pane with [terminal] webgl = true (SwiftShader in the bench's Chromium).
    if (webgl) term.loadAddon(new window.WebglAddon.WebglAddon());
    const id = nextId++;
    terminals.set(id, term);
    return id;
  }

  function socket(path) {
    const ws = new WebSocket(`ws://${location.host}${path}`);
    ws.binaryType = 'arraybuffer';
    return new Promise((resolve, reject) => {
      ws.onopen = () => resolve(ws);
      ws.onerror = () => reject(new Error(`could not open ${path}`));
    });
  }

  /**
   * Streams the server's bytes into terminal `id`; resolves when xterm has parsed them all.
   * `watermarks` undefined: the server's (the engine's renderer window); null: no flow control.
   */
  async function stream(id, { frameBytes = 65536, watermarks, limitBytes } = {}) {
    const term = terminals.get(id);
    const ws = await socket('/ws/stream');
    return new Promise((resolve) => {
      let total = -1;
      let parsed = 0;
      let frames = 0;
      const t0 = performance.now();
      ws.onmessage = (event) => {
        if (typeof event.data === 'string') {
          total = JSON.parse(event.data).total;
          return;
        }
        const bytes = new Uint8Array(event.data);
        frames++;
        term.write(bytes, () => {
          parsed += bytes.byteLength;
          const ack = new Uint8Array(4);
          new DataView(ack.buffer).setUint32(0, bytes.byteLength, true);
          ws.send(ack);
          if (parsed === total) {
            ws.close();
            resolve({ ms: performance.now() - t0, bytes: parsed, frames });
          }
        });
      };
      ws.send(JSON.stringify({ type: 'start', frameBytes, watermarks, limitBytes }));
    });
  }

  /** Wires terminal `id` to a bash on the server, xterm straight to the pty. */
  async function connectPty(id) {
    const term = terminals.get(id);
    const ws = await socket('/ws/pty');
    const encoder = new TextEncoder();
    ws.send(JSON.stringify({ type: 'resize', cols: term.cols, rows: term.rows }));
    term.onData((data) => ws.send(encoder.encode(data)));
    ws.onmessage = (event) => {
      const bytes = new Uint8Array(event.data);
      term.write(bytes, () => ws.send(JSON.stringify({ type: 'ack', bytes: bytes.byteLength })));
    };
    term.focus();
  }

  function fill(id, text) {
    return new Promise((resolve) => terminals.get(id).write(text, resolve));
  }

  window.__ref = { terminals, createTerminal, stream, connectPty, fill };
})();
