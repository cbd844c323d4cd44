/**
 * A streaming scanner that finds the OSC sequences Tandem cares about (7, 133, 633, 1337)
 * in raw pty output. It never changes the bytes — the caller passes every chunk on to the
 * terminal untouched — and it keeps its state across chunks, so a sequence split at any
 * byte boundary is found exactly once.
 *
 * Terminators: BEL, or ESC \ (ST). CAN and SUB abort a sequence, as do an ESC followed by
 * anything but '\'. Payloads over MAX_PAYLOAD bytes are dropped (the terminal still sees them).
 */

export const MAX_PAYLOAD = 128 * 1024;

const ESC = 0x1b;
const BEL = 0x07;
const CAN = 0x18;
const SUB = 0x1a;
const BACKSLASH = 0x5c;
const RIGHT_BRACKET = 0x5d;
const SEMICOLON = 0x3b;

const WANTED_IDS = new Set([7, 133, 633, 1337]);
const MAX_ID = 99_999;

const enum State {
  Ground,
  Escape,
  OscId,
  OscPayload,
  OscIgnored,
  OscEscape,
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
  private readonly decoder = new TextDecoder('utf-8');

  push(chunk: Uint8Array): ScannedOsc[] {
    const found: ScannedOsc[] = [];
    let i = 0;
    const n = chunk.length;
    while (i < n) {
      switch (this.state) {
        case State.Ground: {
          const next = chunk.indexOf(ESC, i);
          if (next === -1) return found;
          this.state = State.Escape;
          i = next + 1;
          break;
        }
        case State.Escape: {
          const byte = chunk[i++]!;
          if (byte === RIGHT_BRACKET) this.beginOsc();
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
          } else {
            this.handleOscControl(byte, found, i);
          }
          break;
        }
        case State.OscPayload: {
          const byte = chunk[i++]!;
          if (byte >= 0x20) {
            if (this.payload.length < MAX_PAYLOAD) this.payload.push(byte);
            else this.overflowed = true;
          } else {
            this.handleOscControl(byte, found, i);
          }
          break;
        }
        case State.OscIgnored: {
          const byte = chunk[i++]!;
          if (byte < 0x20) this.handleOscControl(byte, found, i);
          break;
        }
        case State.OscEscape: {
          const byte = chunk[i];
          if (byte === BACKSLASH) {
            i++;
            this.finishOsc(i, found);
          } else {
            // ESC that is not ST aborts the OSC and starts a new escape sequence.
            this.resetOsc();
            this.state = State.Escape;
          }
          break;
        }
      }
    }
    return found;
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
