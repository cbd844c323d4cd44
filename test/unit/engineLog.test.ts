import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ALNUM, pseudo } from '../support/pseudoText';
import { EngineLog, type LogRecord } from '../../src/main/log/engineLog';
import { makeTempDir, removeDir } from '../integration/harness/shellSession';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function tempFile(name = 'engine.log'): string {
  const dir = makeTempDir('engine-log');
  dirs.push(dir);
  return join(dir, 'state', 'tandem', name);
}

function records(file: string): LogRecord[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as LogRecord);
}

describe('EngineLog', () => {
  it('writes one JSON record a line, with level, area, message and an error stack, creating its folders', () => {
    const file = tempFile();
    const log = new EngineLog({ file, now: () => new Date('2026-11-26T10:00:00Z') });
    log.error('client', 'pane.create failed', new Error('boom'));
    log.warning('mirror', 'the mirror thread was restarted');
    log.info('shell', 'fell back to /bin/sh', { tried: ['/usr/bin/fish'] });
    const written = records(file);
    expect(written.map(({ level, area, message }) => [level, area, message])).toEqual([
      ['error', 'client', 'pane.create failed'],
      ['warning', 'mirror', 'the mirror thread was restarted'],
      ['info', 'shell', 'fell back to /bin/sh'],
    ]);
    expect(written[0]!.time).toBe('2026-11-26T10:00:00.000Z');
    expect(written[0]!.detail).toMatch(/^Error: boom\n\s+at /);
    expect(written[1]!.detail).toBeUndefined();
    expect(written[2]!.detail).toBe('{"tried":["/usr/bin/fish"]}');
  });

  it('scrubs secrets from message and detail, as model traffic is', () => {
    const file = tempFile();
    const key = `sk-ant-api03-${pseudo(60, ALNUM + '_-', 11)}`;
    const aws = `AKIA${'Z2Y3X4W5V6U7T8S9'}`;
    new EngineLog({ file }).error('model', `request failed with key ${key}`, new Error(`AWS_ACCESS_KEY_ID=${aws} rejected`));
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(key);
    expect(text).not.toContain(aws);
    expect(records(file)[0]!.message).toContain('request failed with key');
  });

  it('keeps under its size cap by rotating to engine.log.1, replacing the older one', () => {
    const file = tempFile();
    const log = new EngineLog({ file, maxBytes: 400 });
    for (let i = 0; i < 20; i++) log.info('engine', `record number ${i} ${'x'.repeat(40)}`);
    expect(readFileSync(file, 'utf8').length).toBeLessThanOrEqual(400);
    expect(readFileSync(`${file}.1`, 'utf8').length).toBeLessThanOrEqual(400);
    const newest = records(file).at(-1)!;
    expect(newest.message).toContain('record number 19');
    expect(records(`${file}.1`).at(-1)!.message).not.toContain('record number 19');
    // The size is picked up from a file that exists already.
    const again = new EngineLog({ file, maxBytes: 400 });
    again.info('engine', 'after a restart');
    expect(readFileSync(file, 'utf8').length).toBeLessThanOrEqual(400);
  });

  it('cuts a runaway field, echoes every line, and never throws when the file cannot be written', () => {
    const file = tempFile();
    const echoed: string[] = [];
    new EngineLog({ file, echo: (line) => echoed.push(line) }).error('engine', 'x'.repeat(20_000));
    expect(records(file)[0]!.message.length).toBeLessThan(8_100);
    expect(echoed).toHaveLength(1);
    // A regular file where the folder should be.
    const dir = makeTempDir('engine-log');
    dirs.push(dir);
    writeFileSync(join(dir, 'tandem'), 'not a folder');
    const unwritable = new EngineLog({ file: join(dir, 'tandem', 'engine.log') });
    expect(() => unwritable.error('engine', 'lost')).not.toThrow();
    expect(() => unwritable.error('engine', 'lost again')).not.toThrow();
    expect(existsSync(join(dir, 'tandem', 'engine.log'))).toBe(false);
  });
});
