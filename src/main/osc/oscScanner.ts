/**
 * A streaming scanner that finds the OSC sequences Tandem cares about (7, 133, 633, 1337, 6973)
 * in raw pty output. It never changes the bytes — the caller passes every chunk on to the
 * terminal untouched — and it keeps its state across chunks, so a sequence split at any
 * byte boundary is found exactly once.
 *
 * It follows xterm.js, which parses the same bytes: an OSC starts with ESC ] or the C1
 * character U+009D (UTF-8 C2 9D); BEL, ST (ESC \ or U+009C) and any other ESC end it (that
 * ESC then starts the next sequence); CAN and SUB abort it. Payloads over MAX_PAYLOAD bytes
 * are dropped (the terminal still sees them).
 */

export const MAX_PAYLOAD = 128 * 1024;

const ESC = 0x1b;
const BEL = 0x07;
const CAN = 0x18;
const SUB = 0x1a;
const BACKSLASH = 0x5c;
const RIGHT_BRACKET = 0x5d;
const SEMICOLON = 0x3b;
/** Lead byte of the UTF-8 encoding of the C1 controls U+0080..U+009F. */
const C1_LEAD = 0xc2;
const C1_OSC = 0x9d;
const C1_ST = 0x9c;

/** The two ways an OSC begins: ESC ] and U+009D in UTF-8. */
const ESC_OSC = Buffer.from([ESC, RIGHT_BRACKET]);
const C1_OSC_START = Buffer.from([C1_LEAD, C1_OSC]);

/** 6973: Tandem's own environment report (see marks.ts). */
const WANTED_IDS = new Set([7, 133, 633, 1337, 6973]);
const MAX_ID = 99_999;

const enum State {
  Ground,
  Escape,
  OscId,
  OscPayload,
  OscIgnored,
  OscEscape,
  /** Ground after a C2 byte: C2 9D starts an OSC. */
  GroundC1,
  /** Inside an OSC after a C2 byte: C2 9C ends it, anything else is payload. */
  OscC1,
}

export interface ScannedOsc {
  /** OSC number, e.g. 133. */
  id: number;
  /** Everything after `id;`, decoded as UTF-8. */
  payload: string;
  /** Index in the pushed chunk just past the terminator. */
  end: number;
}

export class OscScanner {
  private state = State.Ground;
  private id = 0;
  private idDigits = 0;
  private payload: number[] = [];
  private overflowed = false;
  /** Whether the current OSC is one we report (its payload is being kept). */
  private collecting = false;
  /** The state an OscC1 byte returns to (payload or ignored). */
  private oscBody: State.OscPayload | State.OscIgnored = State.OscIgnored;
  private readonly decoder = new TextDecoder('utf-8');

  push(chunk: Uint8Array): ScannedOsc[] {
    const found: ScannedOsc[] = [];
    let i = 0;
    const n = chunk.length;
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    // Where the next ESC ] and C2 9D lie, searched again only once passed. Searched for whole (a
    // native search each), not byte by byte: a coloured log has an ESC every few bytes, none of
    // them an OSC.
    let escape = -2;
    let c1 = -2;
    while (i < n) {
      switch (this.state) {
        case State.Ground: {
          if (escape !== -1 && escape < i) escape = bytes.indexOf(ESC_OSC, i);
          if (c1 !== -1 && c1 < i) c1 = bytes.indexOf(C1_OSC_START, i);
          if (escape === -1 && c1 === -1) {
            // None whole here: only the chunk's last byte may begin one that ends in the next.
            const last = chunk[n - 1];
            this.state = last === ESC ? State.Escape : last === C1_LEAD ? State.GroundC1 : State.Ground;
            return found;
          }
          i = (c1 !== -1 && (escape === -1 || c1 < escape) ? c1 : escape) + 2;
          this.beginOsc();
          break;
        }
        case State.GroundC1: {
          if (chunk[i] === C1_OSC) {
            i++;
            this.beginOsc();
          } else {
            this.state = State.Ground;
          }
          break;
        }
        case State.Escape: {
          const byte = chunk[i++]!;
          if (byte === RIGHT_BRACKET) this.beginOsc();
          // U+009D starts an OSC from any state, right after an ESC too (xterm's C1 controls).
          else if (byte === C1_LEAD) this.state = State.GroundC1;
          else if (byte !== ESC) this.state = State.Ground;
          break;
        }
        case State.OscId: {
          const byte = chunk[i++]!;
          if (byte >= 0x30 && byte <= 0x39 && this.idDigits < 6) {
            this.id = this.id * 10 + (byte - 0x30);
            this.idDigits++;
            if (this.id > MAX_ID) this.state = State.OscIgnored;
          } else if (byte === SEMICOLON && this.idDigits > 0) {
            this.collecting = WANTED_IDS.has(this.id);
            this.state = this.collecting ? State.OscPayload : State.OscIgnored;
          } else if (byte === C1_LEAD) {
            this.collecting = false;
            this.oscBody = State.OscIgnored;
            this.state = State.OscC1;
          } else {
            this.handleOscControl(byte, found, i);
          }
          break;
        }
        case State.OscPayload: {
          const byte = chunk[i++]!;
          if (byte === C1_LEAD) {
            this.oscBody = State.OscPayload;
            this.state = State.OscC1;
          } else if (byte >= 0x20) {
            this.keep(byte);
          } else {
            this.handleOscControl(byte, found, i);
          }
          break;
        }
        case State.OscIgnored: {
          const byte = chunk[i++]!;
          if (byte === C1_LEAD) {
            this.oscBody = State.OscIgnored;
            this.state = State.OscC1;
          } else if (byte < 0x20) {
            this.handleOscControl(byte, found, i);
          }
          break;
        }
        case State.OscC1: {
          if (chunk[i] === C1_ST) {
            i++;
            this.finishOsc(i, found);
          } else {
            // An ordinary character starting with C2 (°, ±, a no-break space): payload.
            if (this.oscBody === State.OscPayload) this.keep(C1_LEAD);
            this.state = this.oscBody;
          }
          break;
        }
        case State.OscEscape: {
          if (chunk[i] === BACKSLASH) {
            i++;
            this.finishOsc(i, found);
          } else {
            // Any other ESC ends the OSC too (as in xterm.js) and starts the next sequence.
            this.finishOsc(i, found);
            this.state = State.Escape;
          }
          break;
        }
      }
    }
    return found;
  }

  private keep(byte: number): void {
    if (this.payload.length < MAX_PAYLOAD) this.payload.push(byte);
    else this.overflowed = true;
  }

  private beginOsc(): void {
    this.state = State.OscId;
    this.id = 0;
    this.idDigits = 0;
    this.payload = [];
    this.overflowed = false;
    this.collecting = false;
  }

  /** A control byte inside an OSC, or a byte that ends the numeric id without `;`. */
  private handleOscControl(byte: number, found: ScannedOsc[], next: number): void {
    if (this.state === State.OscId) this.collecting = false;
    if (byte === BEL) {
      this.finishOsc(next, found);
    } else if (byte === ESC) {
      this.state = State.OscEscape;
    } else if (byte === CAN || byte === SUB) {
      this.resetOsc();
      this.state = State.Ground;
    } else if (this.state === State.OscId && byte >= 0x20) {
      // Not a well-formed `id;` prefix: the rest is an OSC we do not track.
      this.state = State.OscIgnored;
    }
    // Other C0 bytes inside an OSC are ignored, as xterm does.
  }

  private finishOsc(end: number, found: ScannedOsc[]): void {
    if (this.collecting && !this.overflowed) {
      found.push({ id: this.id, payload: this.decoder.decode(Uint8Array.from(this.payload)), end });
    }
    this.resetOsc();
    this.state = State.Ground;
  }

  private resetOsc(): void {
    this.payload = [];
    this.collecting = false;
    this.overflowed = false;
  }
}
