/** Bytes of the RIFF header `writeWavHeader` writes before the samples. */
export const WAV_HEADER_BYTES = 44;

/**
 * Writes a 16-bit PCM WAV header into the first 44 bytes of `bytes`, for `dataBytes` of
 * samples after it. Shared by the renderer's push-to-talk encoder and the engine's `listen`.
 */
export function writeWavHeader(bytes: Uint8Array, dataBytes: number, sampleRate: number, channels = 1): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, WAV_HEADER_BYTES);
  const text = (at: number, value: string) => [...value].forEach((char, index) => view.setUint8(at + index, char.charCodeAt(0)));
  text(0, 'RIFF');
  view.setUint32(4, 36 + dataBytes, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, channels, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * channels * 2, true);
  view.setUint16(32, channels * 2, true);
  view.setUint16(34, 16, true);
  text(36, 'data');
  view.setUint32(40, dataBytes, true);
}
