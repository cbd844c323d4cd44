/** Whether a file's first bytes are text: what read_file checks before it returns anything. */

const MAGIC: { bytes: number[]; name: string }[] = [
  { bytes: [0x89, 0x50, 0x4e, 0x47], name: 'PNG image' },
  { bytes: [0xff, 0xd8, 0xff], name: 'JPEG image' },
  { bytes: [0x47, 0x49, 0x46, 0x38], name: 'GIF image' },
  { bytes: [0x25, 0x50, 0x44, 0x46], name: 'PDF document' },
  { bytes: [0x50, 0x4b, 0x03, 0x04], name: 'ZIP archive (or a format built on it: jar, docx, xlsx…)' },
  { bytes: [0x1f, 0x8b], name: 'gzip archive' },
  { bytes: [0x7f, 0x45, 0x4c, 0x46], name: 'ELF executable or library' },
  { bytes: [0xcf, 0xfa, 0xed, 0xfe], name: 'Mach-O executable' },
  { bytes: [0x28, 0xb5, 0x2f, 0xfd], name: 'zstd archive' },
  { bytes: [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65], name: 'SQLite database' },
];

/** Why the bytes look binary (a NUL byte, invalid UTF-8, many control characters), or undefined for text. */
export function binaryReason(sample: Uint8Array): string | undefined {
  const magic = MAGIC.find((m) => m.bytes.every((b, i) => sample[i] === b));
  if (sample.includes(0)) return magic ? magic.name : 'it contains NUL bytes';
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true });
  } catch {
    return magic ? magic.name : 'it is not valid UTF-8';
  }
  let control = 0;
  for (const byte of sample) {
    // Tab, line feed, vertical tab, form feed, carriage return, backspace and escape occur in text.
    if (byte < 0x20 && ![0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1b].includes(byte)) control++;
  }
  if (sample.length > 0 && control / sample.length > 0.1) return magic ? magic.name : 'it is mostly control characters';
  return undefined;
}
