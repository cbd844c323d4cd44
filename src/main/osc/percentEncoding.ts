/**
 * Percent-encoding for command lines carried inside OSC 133 C (`cmdline_url=`), as kitty
 * does: every byte outside printable ASCII, and `%` and `;`, becomes %XX of its UTF-8 bytes.
 * The shell scripts implement the encoding side; this is the reference and the decoder.
 */

export function percentEncode(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let out = '';
  for (const byte of bytes) {
    if (byte > 0x20 && byte < 0x7f && byte !== 0x25 && byte !== 0x3b) out += String.fromCharCode(byte);
    else out += '%' + byte.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

/** Tolerant decoder: a malformed escape is kept as literal text; bytes decode as UTF-8. */
export function percentDecode(text: string): string {
  if (!text.includes('%')) return text;
  const input = new TextEncoder().encode(text);
  const bytes = new Uint8Array(input.length);
  let length = 0;
  for (let i = 0; i < input.length; i++) {
    const byte = input[i]!;
    if (byte === 0x25 && i + 2 < input.length && isHex(input[i + 1]!) && isHex(input[i + 2]!)) {
      bytes[length++] = parseInt(String.fromCharCode(input[i + 1]!, input[i + 2]!), 16);
      i += 2;
    } else {
      bytes[length++] = byte;
    }
  }
  return new TextDecoder('utf-8').decode(bytes.subarray(0, length));
}

function isHex(byte: number): boolean {
  return (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66);
}
