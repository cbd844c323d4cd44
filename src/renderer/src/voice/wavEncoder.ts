import { VOICE_SAMPLE_RATE } from '../../../shared/voice';
import { WAV_HEADER_BYTES, writeWavHeader } from '../../../shared/wavHeader';

const HEADER_BYTES = WAV_HEADER_BYTES;

/**
 * Recorded float samples (−1…1, mono, at `inputRate`) as a 16-bit PCM WAV at `outputRate`
 * (16 kHz: what whisper takes, and what every OpenAI-compatible server reads without ffmpeg).
 * Downsampling averages the samples each output sample spans, which keeps aliasing down;
 * upsampling interpolates.
 */
export function encodeWav(chunks: readonly Float32Array[], inputRate: number, outputRate: number = VOICE_SAMPLE_RATE): Uint8Array {
  const samples = resample(joined(chunks), inputRate, outputRate);
  const bytes = new Uint8Array(HEADER_BYTES + samples.length * 2);
  const view = new DataView(bytes.buffer);
  writeWavHeader(bytes, samples.length * 2, outputRate);
  samples.forEach((sample, index) => {
    const clamped = Math.max(-1, Math.min(1, Number.isFinite(sample) ? sample : 0));
    view.setInt16(HEADER_BYTES + index * 2, clamped < 0 ? clamped * 0x8000 : clamped * 0x7fff, true);
  });
  return bytes;
}

function joined(chunks: readonly Float32Array[]): Float32Array {
  const all = new Float32Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return all;
}

function resample(input: Float32Array, inputRate: number, outputRate: number): Float32Array {
  if (inputRate === outputRate || input.length === 0) return input;
  const ratio = inputRate / outputRate;
  const output = new Float32Array(Math.floor(input.length / ratio));
  for (let index = 0; index < output.length; index++) {
    if (ratio > 1) {
      const start = Math.floor(index * ratio);
      const end = Math.min(input.length, Math.max(start + 1, Math.floor((index + 1) * ratio)));
      let sum = 0;
      for (let source = start; source < end; source++) sum += input[source]!;
      output[index] = sum / (end - start);
    } else {
      const position = index * ratio;
      const before = Math.floor(position);
      const after = Math.min(input.length - 1, before + 1);
      output[index] = input[before]! + (input[after]! - input[before]!) * (position - before);
    }
  }
  return output;
}
