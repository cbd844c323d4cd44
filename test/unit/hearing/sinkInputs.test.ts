import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applicationStream } from '../../../src/main/agent/hearing/applicationStream';
import { sinkInputsFromJson, sinkInputsFromText, type SinkInput } from '../../../src/main/agent/hearing/sinkInputs';

// Real output of pactl 16.1 (PulseAudio 16.1) with three paplay streams into a null sink:
// `paplay --client-name=Firefox --property=application.process.binary=firefox-bin`,
// `paplay --property=application.name='Say "hi" \ there' --property=application.process.binary=tonegen`,
// `paplay --client-name=firefox` (binary pacat); captured with LC_ALL=C, machine id zeroed.
const fixtures = join(__dirname, '../../fixtures/pactl');
const json = readFileSync(join(fixtures, 'sink-inputs.json'), 'utf8');
const text = readFileSync(join(fixtures, 'sink-inputs.txt'), 'utf8');

const CAPTURED: SinkInput[] = [
  { index: 1, corked: false, name: 'Firefox', binary: 'firefox-bin' },
  { index: 2, corked: false, name: 'Say "hi" \\ there', binary: 'tonegen' },
  { index: 3, corked: false, name: 'firefox', binary: 'pacat' },
];

describe('the streams pactl lists', () => {
  it('reads `pactl -f json list sink-inputs`', () => {
    expect(sinkInputsFromJson(json)).toEqual(CAPTURED);
  });

  it('reads `pactl list sink-inputs` (older pactl) to the same streams, quotes and backslashes included', () => {
    expect(sinkInputsFromText(text)).toEqual(CAPTURED);
  });

  it('a paused stream is corked in either form', () => {
    expect(sinkInputsFromText(text.replace('Corked: no', 'Corked: yes'))[0]!.corked).toBe(true);
    expect(sinkInputsFromJson(json.replace('"corked":false', '"corked":true'))[0]!.corked).toBe(true);
  });

  it('no streams: an empty list from both forms; JSON that is not pactl\'s is an error (the text form is tried then)', () => {
    expect(sinkInputsFromJson('[]')).toEqual([]);
    expect(sinkInputsFromText('')).toEqual([]);
    expect(() => sinkInputsFromJson('{"index":1}')).toThrow(/array/);
    expect(() => sinkInputsFromJson('pactl: invalid option -- \'f\'')).toThrow();
  });

  it('any one-line name survives the text form as pactl escapes it (only `"` becomes `\\"`)', () => {
    const oneLine = fc.string({ minLength: 1, maxLength: 40 }).filter((name) => !/[\n\r]/.test(name));
    fc.assert(
      fc.property(oneLine, fc.nat(10_000), (name, index) => {
        const printed = `Sink Input #${index}\n\tCorked: no\n\tProperties:\n\t\tapplication.name = "${name.replaceAll('"', '\\"')}"\n\t\tmedia.name = "x"\n`;
        expect(sinkInputsFromText(printed)).toEqual([{ index, corked: false, name, binary: undefined }]);
      }),
    );
  });
});

describe('the stream listen records for an application', () => {
  it('matches application.name or application.process.binary, whatever the case; of several, the newest', () => {
    expect(applicationStream(CAPTURED, 'FIREFOX')).toEqual({ found: true, stream: CAPTURED[2], playing: 2 });
    expect(applicationStream(CAPTURED, 'firefox-bin')).toEqual({ found: true, stream: CAPTURED[0], playing: 1 });
    expect(applicationStream(CAPTURED, 'tonegen')).toEqual({ found: true, stream: CAPTURED[1], playing: 1 });
    // A name is matched whole, not as a part.
    expect(applicationStream(CAPTURED, 'fire').found).toBe(false);
  });

  it('not playing: the reason names what is playing; paused: says so', () => {
    expect(applicationStream(CAPTURED, 'vlc')).toEqual({ found: false, reason: 'vlc is not playing anything (playing now: Firefox, Say "hi" \\ there, firefox)' });
    expect(applicationStream([], 'vlc')).toEqual({ found: false, reason: 'vlc is not playing anything (nothing is playing now)' });
    const paused = CAPTURED.map((stream) => (stream.binary === 'tonegen' ? { ...stream, corked: true } : stream));
    expect(applicationStream(paused, 'tonegen')).toEqual({ found: false, reason: 'tonegen is paused: its stream plays nothing (playing now: Firefox, firefox)' });
    // A paused stream of the application is passed over for a playing one.
    const firstPaused = CAPTURED.map((stream) => (stream.index === 3 ? { ...stream, corked: true } : stream));
    expect(applicationStream(firstPaused, 'firefox')).toEqual({ found: true, stream: CAPTURED[0], playing: 1 });
  });
});
