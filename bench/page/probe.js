// Injected into the Tandem page and the reference page alike, so both are measured by the
// same code: a capture-phase keydown timestamp, and "wait until xterm has parsed something
// that makes this predicate true" via term.onWriteParsed. Times are performance.now().
(() => {
  if (window.__bench) return;
  const key = { handler: 0, stamp: 0, key: '', firstMessage: 0, bytesSince: 0 };
  // When the first WebSocket message after a key arrived: splits an echo into "to the page"
  // (engine, shell, network) and "in the page" (dispatch, xterm parse). Meaningful while idle.
  const NativeWebSocket = window.WebSocket;
  window.WebSocket = class extends NativeWebSocket {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => {
        key.bytesSince += typeof event.data === 'string' ? event.data.length : event.data.byteLength;
        if (key.firstMessage === 0) key.firstMessage = performance.now();
      });
    }
  };
  window.addEventListener(
    'keydown',
    (event) => {
      key.handler = performance.now();
      // The event's creation time: includes any wait in the renderer's input queue (a busy
      // main thread), which the handler time would hide.
      key.stamp = event.timeStamp;
      key.key = event.key;
      key.firstMessage = 0;
      key.bytesSince = 0;
      if (echo && event.key.length === 1 && !event.ctrlKey && !event.altKey && !event.metaKey) armEcho(event);
    },
    true,
  );

  // Echo sessions: every printable keydown arms "the cursor row now reads what it read plus
  // this character"; the time from the key event to the write-parsed that shows it is a sample.
  let echo;
  function armEcho(event) {
    const term = terminal(echo.id);
    const expected = cursorText(term) + event.key;
    const stamp = event.timeStamp;
    const handler = performance.now();
    echo.next = until(term, (t) => cursorText(t) === expected, 10_000).then((r) => ({ ...r, keyStamp: stamp, keyHandler: handler, key: event.key }));
    echo.next.catch(() => undefined);
  }
  const checks = new Map();
  const hooked = new WeakSet();
  const pending = new Map();

  function terminal(id) {
    const maps = [window.__tandem?.terminals, window.__ref?.terminals].filter(Boolean);
    for (const map of maps) if (map.has(id)) return map.get(id);
    throw new Error(`no terminal ${id} (have ${maps.map((m) => [...m.keys()].join(',')).join(' / ')})`);
  }

  function hook(term) {
    if (hooked.has(term)) return;
    hooked.add(term);
    checks.set(term, new Set());
    term.onWriteParsed(() => {
      const now = performance.now();
      for (const check of [...checks.get(term)]) check(now);
    });
  }

  /** Text of the cursor's row up to the cursor. */
  function cursorText(term) {
    const buffer = term.buffer.active;
    const line = buffer.getLine(buffer.baseY + buffer.cursorY);
    return line ? line.translateToString(false, 0, buffer.cursorX) : '';
  }

  /** The last `count` rows up to and including the cursor row, trimmed. */
  function lastRows(term, count) {
    const buffer = term.buffer.active;
    const rows = [];
    const end = buffer.baseY + buffer.cursorY;
    for (let y = Math.max(0, end - count + 1); y <= end; y++) rows.push(buffer.getLine(y)?.translateToString(true) ?? '');
    return rows;
  }

  /** Resolves with the time of the first write-parsed after which `predicate(term)` holds. */
  function until(term, predicate, timeoutMs) {
    hook(term);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        checks.get(term).delete(check);
        reject(new Error(`timed out after ${timeoutMs} ms; cursor row: ${JSON.stringify(cursorText(term))}`));
      }, timeoutMs);
      const check = (now) => {
        if (!predicate(term)) return;
        clearTimeout(timer);
        checks.get(term).delete(check);
        resolve({ at: now, keyHandler: key.handler, keyStamp: key.stamp, key: key.key, firstMessage: key.firstMessage, bytesSinceKey: key.bytesSince });
      };
      checks.get(term).add(check);
    });
  }

  const predicates = {
    /** The cursor row reads exactly `text` up to the cursor. */
    cursorTextIs: (text) => (term) => cursorText(term) === text,
    /** One of the last rows is exactly `text`. */
    rowIs: (text, count = 4) => (term) => lastRows(term, count).includes(text),
  };

  window.__bench = {
    key,
    terminal,
    cursorText: (id) => cursorText(terminal(id)),
    lastRows: (id, count) => lastRows(terminal(id), count),
    startEcho(id) {
      echo = { id, next: undefined };
    },
    /** The sample of the last printable key pressed since startEcho. */
    async nextEcho() {
      if (!echo?.next) throw new Error('no printable keydown reached the page');
      const result = await echo.next;
      echo.next = undefined;
      return result;
    },
    stopEcho() {
      echo = undefined;
    },
    /** Arm a wait under `name`; collect it later with `result(name)`. */
    arm(name, id, predicate, args, timeoutMs = 10_000) {
      const promise = until(terminal(id), predicates[predicate](...args), timeoutMs);
      promise.catch(() => undefined);
      pending.set(name, promise);
    },
    async result(name) {
      const value = await pending.get(name);
      pending.delete(name);
      return value;
    },
    /**
     * Arm a wait for one more finished block in the DOM (`[data-testid=block][data-exit-code]`,
     * optionally inside the pane `paneId`); the result is when React committed it.
     */
    armBlockEnd(name, paneId, timeoutMs = 10_000) {
      const selector = '[data-testid=block][data-exit-code]';
      const scope = () =>
        paneId === undefined ? document : (document.querySelector(`[data-testid=pane][data-pane-id="${paneId}"]`) ?? document);
      const count = () => scope().querySelectorAll(selector).length;
      const before = count();
      const promise = new Promise((resolve, reject) => {
        const observer = new MutationObserver(() => {
          if (count() <= before) return;
          const now = performance.now();
          observer.disconnect();
          clearTimeout(timer);
          resolve({ at: now, keyHandler: key.handler, keyStamp: key.stamp, key: key.key });
        });
        const timer = setTimeout(() => {
          observer.disconnect();
          reject(new Error(`no new finished block within ${timeoutMs} ms (${before} before)`));
        }, timeoutMs);
        observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-exit-code'] });
      });
      promise.catch(() => undefined);
      pending.set(name, promise);
    },
    /** Counts bytes handed to term.write and bytes whose write callback has run. */
    countWrites(id) {
      const term = terminal(id);
      if (term.__benchCounts) return;
      const counts = (term.__benchCounts = { written: 0, parsed: 0, writes: 0 });
      const write = term.write.bind(term);
      term.write = (data, callback) => {
        const size = typeof data === 'string' ? data.length : data.byteLength;
        counts.written += size;
        counts.writes++;
        write(data, () => {
          counts.parsed += size;
          callback?.();
        });
      };
    },
    /** Bytes written and parsed, and (Tandem) output the engine skipped because it would have scrolled out unseen. */
    counts: (id) => ({ ...terminal(id).__benchCounts, skipped: window.__tandem?.skippedBytes(id) ?? 0 }),
  };
})();
