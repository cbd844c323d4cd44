import { VoiceError } from './voiceError';

export interface WavClip {
  seconds: number;
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
}

const ascii = (bytes: Uint8Array, at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));

/**
 * What a recording from the renderer holds, read from its RIFF header: a PCM WAV with a
 * `fmt ` and a `data` chunk, or a VoiceError saying what is wrong with it (nothing is sent).
 */
export function readWavClip(bytes: Uint8Array): WavClip {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 12 || ascii(bytes, 0) !== 'RIFF' || ascii(bytes, 8) !== 'WAVE') throw new VoiceError('The recording is not a WAV file; nothing was sent.');
  let format: Omit<WavClip, 'seconds'> | undefined;
  for (let at = 12; at + 8 <= bytes.byteLength; ) {
    const id = ascii(bytes, at);
    const size = view.getUint32(at + 4, true);
    if (id === 'fmt ' && size >= 16 && at + 24 <= bytes.byteLength) {
      if (view.getUint16(at + 8, true) !== 1) throw new VoiceError('The recording is not plain PCM; nothing was sent.');
      format = { channels: view.getUint16(at + 10, true), sampleRate: view.getUint32(at + 12, true), bitsPerSample: view.getUint16(at + 22, true) };
    }
    if (id === 'data') {
      if (!format || format.channels === 0 || format.sampleRate === 0 || format.bitsPerSample === 0) break;
      const dataBytes = Math.min(size, bytes.byteLength - at - 8);
      const seconds = dataBytes / (format.channels * (format.bitsPerSample / 8) * format.sampleRate);
      if (seconds <= 0) throw new VoiceError('The recording is empty; nothing was sent.');
      return { ...format, seconds };
    }
    at += 8 + size + (size & 1);
  }
  throw new VoiceError('The recording has no audio in it (its WAV header is incomplete); nothing was sent.');
}
