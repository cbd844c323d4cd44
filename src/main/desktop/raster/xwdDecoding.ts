import { rowsOf, type PixelRows } from './pixelRows';
import type { RgbaImage } from './rgbaImage';

const Z_PIXMAP = 2;
const TRUE_COLOR = 4;
const DIRECT_COLOR = 5;
const COLOR_ENTRY_BYTES = 12;

interface XwdLayout {
  width: number;
  height: number;
  /** Where the pixel rows start in the dump. */
  pixelsAt: number;
  bytesPerLine: number;
  bitsPerPixel: number;
  littleEndian: boolean;
  masks: ChannelMasks;
}

/**
 * Decodes the XWD dump `xwd -silent` writes: a big-endian header, a colour map, then the
 * server's own pixel rows. Handles the TrueColor/DirectColor ZPixmap formats of every
 * current X server (16, 24 and 32 bits per pixel, either byte order), with a fast path for
 * the common 32-bit little-endian 8-8-8 layout.
 */
export function decodeXwd(dump: Uint8Array): RgbaImage {
  const layout = readLayout(dump);
  const { width, height, pixelsAt, bytesPerLine, bitsPerPixel, littleEndian, masks } = layout;
  const data = new Uint8Array(width * height * 4);
  if (bitsPerPixel === 32 && littleEndian && masks.red === 0xff0000 && masks.green === 0xff00 && masks.blue === 0xff) {
    decodeBgrx(dump, pixelsAt, bytesPerLine, width, height, data);
  } else {
    decodeWithMasks(new DataView(dump.buffer, dump.byteOffset, dump.byteLength), pixelsAt, bytesPerLine, width, height, bitsPerPixel, littleEndian, masks, data);
  }
  return { width, height, data };
}

/**
 * The dump's pixels as rows to read in place: its own rows when every channel is a whole
 * byte of a 32-bit pixel (what X servers use at depth 24), else the decoded image's. Saves
 * decoding a whole screen when only a scaled copy is wanted.
 */
export function xwdPixelRows(dump: Uint8Array): PixelRows {
  const { width, height, pixelsAt, bytesPerLine, bitsPerPixel, littleEndian, masks } = readLayout(dump);
  const byteOf = (mask: number): number | undefined => {
    const index = [0xff, 0xff00, 0xff0000, 0xff000000].indexOf(mask);
    return index < 0 ? undefined : littleEndian ? index : 3 - index;
  };
  const [red, green, blue] = [byteOf(masks.red), byteOf(masks.green), byteOf(masks.blue)];
  if (bitsPerPixel !== 32 || red === undefined || green === undefined || blue === undefined) return rowsOf(decodeXwd(dump));
  return { width, height, data: dump, start: pixelsAt, stride: bytesPerLine, red, green, blue };
}

function readLayout(dump: Uint8Array): XwdLayout {
  const view = new DataView(dump.buffer, dump.byteOffset, dump.byteLength);
  if (dump.byteLength < 100) throw new Error(`XWD dump too short (${dump.byteLength} bytes)`);
  const field = (index: number): number => view.getUint32(index * 4, false);
  const headerSize = field(0);
  const format = field(2);
  const width = field(4);
  const height = field(5);
  const littleEndian = field(7) === 0;
  const bitsPerPixel = field(11);
  const bytesPerLine = field(12);
  const visualClass = field(13);
  const masks = { red: field(14), green: field(15), blue: field(16) };
  const colors = field(19);
  if (format !== Z_PIXMAP || (visualClass !== TRUE_COLOR && visualClass !== DIRECT_COLOR)) {
    throw new Error(`unsupported XWD format ${format}, visual class ${visualClass} (TrueColor ZPixmap expected)`);
  }
  if (bitsPerPixel !== 16 && bitsPerPixel !== 24 && bitsPerPixel !== 32) {
    throw new Error(`unsupported XWD depth: ${bitsPerPixel} bits per pixel`);
  }
  const pixelsAt = headerSize + colors * COLOR_ENTRY_BYTES;
  if (pixelsAt + bytesPerLine * height > dump.byteLength) {
    throw new Error(`XWD dump truncated: ${dump.byteLength} bytes for ${width}×${height}`);
  }
  return { width, height, pixelsAt, bytesPerLine, bitsPerPixel, littleEndian, masks };
}

function decodeBgrx(dump: Uint8Array, start: number, stride: number, width: number, height: number, out: Uint8Array): void {
  let o = 0;
  for (let y = 0; y < height; y++) {
    let i = start + y * stride;
    for (let x = 0; x < width; x++, i += 4) {
      out[o++] = dump[i + 2]!;
      out[o++] = dump[i + 1]!;
      out[o++] = dump[i]!;
      out[o++] = 255;
    }
  }
}

interface ChannelMasks {
  red: number;
  green: number;
  blue: number;
}

function decodeWithMasks(
  view: DataView,
  start: number,
  stride: number,
  width: number,
  height: number,
  bitsPerPixel: number,
  littleEndian: boolean,
  masks: ChannelMasks,
  out: Uint8Array,
): void {
  const red = channel(masks.red);
  const green = channel(masks.green);
  const blue = channel(masks.blue);
  const bytes = bitsPerPixel / 8;
  let o = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const pixel = readPixel(view, start + y * stride + x * bytes, bytes, littleEndian);
      out[o++] = red(pixel);
      out[o++] = green(pixel);
      out[o++] = blue(pixel);
      out[o++] = 255;
    }
  }
}

function readPixel(view: DataView, at: number, bytes: number, littleEndian: boolean): number {
  if (bytes === 4) return view.getUint32(at, littleEndian);
  if (bytes === 2) return view.getUint16(at, littleEndian);
  const b0 = view.getUint8(at);
  const b1 = view.getUint8(at + 1);
  const b2 = view.getUint8(at + 2);
  return littleEndian ? b0 | (b1 << 8) | (b2 << 16) : (b0 << 16) | (b1 << 8) | b2;
}

/** Extracts a channel by its mask and stretches it to 0–255. */
function channel(mask: number): (pixel: number) => number {
  if (mask === 0) return () => 0;
  let shift = 0;
  while (((mask >>> shift) & 1) === 0) shift++;
  const max = mask >>> shift;
  return (pixel) => Math.round((((pixel & mask) >>> shift) * 255) / max);
}
