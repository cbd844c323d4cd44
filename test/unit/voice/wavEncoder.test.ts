import { describe, expect, it } from 'vitest';
import { readWavClip } from '../../../src/main/voice/wavClip';
import { encodeWav } from '../../../src/renderer/src/voice/wavEncoder';
import { wavFacts } from '../../support/transcriptionServer';

const tone = (seconds: number, rate: number, amplitude = 0.5, hz = 440) =>
  Float32Array.from({ length: Math.round(seconds * rate) }, (_, index) => amplitude * Math.sin((2 * Math.PI * hz * index) / rate));

describe('the WAV encoder (renderer)', () => {
  it('writes a 16 kHz mono 16-bit PCM WAV of the recorded length that both WAV readers accept', () => {
    const wav = encodeWav([tone(0.75, 16_000), tone(0.75, 16_000)], 16_000);
    expect(wav.byteLength).toBe(44 + 1.5 * 16_000 * 2);
    const facts = wavFacts(Buffer.from(wav));
    expect(facts).toMatchObject({ sampleRate: 16_000, channels: 1, bitsPerSample: 16 });
    expect((facts as { seconds: number }).seconds).toBeCloseTo(1.5, 3);
    // A sine of amplitude 0.5 has an RMS of 0.5/√2.
    expect((facts as { rms: number }).rms).toBeCloseTo(0.5 / Math.SQRT2, 2);
    expect(readWavClip(wav)).toEqual({ seconds: 1.5, sampleRate: 16_000, channels: 1, bitsPerSample: 16 });
  });

  it('resamples 48 kHz and 44.1 kHz recordings to 16 kHz, keeping length and loudness', () => {
    for (const rate of [48_000, 44_100]) {
      const facts = wavFacts(Buffer.from(encodeWav([tone(2, rate)], rate))) as { seconds: number; sampleRate: number; rms: number };
      expect(facts.sampleRate).toBe(16_000);
      expect(facts.seconds).toBeCloseTo(2, 2);
      expect(facts.rms).toBeCloseTo(0.5 / Math.SQRT2, 1);
    }
  });

  it('upsamples an 8 kHz recording', () => {
    const facts = wavFacts(Buffer.from(encodeWav([tone(1, 8_000, 0.5, 200)], 8_000))) as { seconds: number; rms: number };
    expect(facts.seconds).toBeCloseTo(1, 2);
    expect(facts.rms).toBeCloseTo(0.5 / Math.SQRT2, 1);
  });

  it('clips what is out of range and turns NaN into silence', () => {
    const wav = encodeWav([Float32Array.from([2, -2, Number.NaN, 1, -1])], 16_000);
    const view = new DataView(wav.buffer);
    expect([0, 1, 2, 3, 4].map((index) => view.getInt16(44 + index * 2, true))).toEqual([32767, -32768, 0, 32767, -32768]);
  });

  it('an empty recording is a header with no samples, which the engine refuses to send', () => {
    const wav = encodeWav([], 48_000);
    expect(wav.byteLength).toBe(44);
    expect(() => readWavClip(wav)).toThrow(/empty/);
  });
});

describe("the engine's WAV check", () => {
  it('refuses what is not a PCM WAV, saying so', () => {
    expect(() => readWavClip(new TextEncoder().encode('OggS not a wav at all'))).toThrow(/not a WAV/);
    const wav = encodeWav([tone(0.1, 16_000)], 16_000);
    const float = Uint8Array.from(wav);
    new DataView(float.buffer).setUint16(20, 3, true);
    expect(() => readWavClip(float)).toThrow(/not plain PCM/);
    expect(() => readWavClip(wav.subarray(0, 30))).toThrow(/incomplete/);
  });
});
