import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A spoken phrase as a WAV file, made by espeak-ng (apt: espeak-ng; `.ci/run` installs it),
 * with silence before and after: Chromium's fake microphone plays the file in a loop, and the
 * silence lets a test see the level meter move between quiet and speech.
 */
export function spokenWav(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-spoken-'));
  const raw = join(dir, 'raw.wav');
  try {
    execFileSync('espeak-ng', ['-v', 'en-us', '-w', raw, text]);
  } catch (error) {
    throw new Error(`espeak-ng is needed to make the fake microphone's speech (apt-get install espeak-ng): ${(error as Error).message}`);
  }
  const padded = join(dir, 'speech.wav');
  writeFileSync(padded, withSilence(readFileSync(raw), 0.3, 0.7));
  return padded;
}

/** The same PCM WAV with `before` and `after` seconds of silence around its samples. */
function withSilence(wav: Buffer, before: number, after: number): Buffer {
  let offset = 12;
  let bytesPerSecond = 0;
  while (offset + 8 <= wav.length) {
    const id = wav.toString('ascii', offset, offset + 4);
    const size = wav.readUInt32LE(offset + 4);
    if (id === 'fmt ') bytesPerSecond = wav.readUInt32LE(offset + 16);
    if (id === 'data') {
      const data = wav.subarray(offset + 8, offset + 8 + Math.min(size, wav.length - offset - 8));
      const silence = (seconds: number) => Buffer.alloc(Math.round((seconds * bytesPerSecond) / 2) * 2);
      const samples = Buffer.concat([silence(before), data, silence(after)]);
      const header = Buffer.from(wav.subarray(0, offset + 8));
      header.writeUInt32LE(samples.length, offset + 4);
      header.writeUInt32LE(header.length - 8 + samples.length, 4);
      return Buffer.concat([header, samples]);
    }
    offset += 8 + size + (size & 1);
  }
  throw new Error('espeak-ng wrote a WAV without a data chunk');
}
