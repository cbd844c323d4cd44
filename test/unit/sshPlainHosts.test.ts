import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { forgetPlainHost, MAX_PLAIN_HOSTS, readPlainHosts, rememberPlainHost } from '../../src/main/ssh/plainHosts';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'plain-hosts-'));
  file = join(dir, 'state', 'ssh-plain-hosts');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the servers remembered as refusing the ssh bootstrap', () => {
  it('remembers a server once, newest last, in a file decide.sh reads line by line (mode 0600)', () => {
    rememberPlainHost(file, 'alice@db1:22', 'ssh ended with 1', new Date('2026-11-29T10:00:00Z'));
    rememberPlainHost(file, 'bob@gw:2200', 'ssh ended with 1', new Date('2026-11-29T11:00:00Z'));
    rememberPlainHost(file, 'alice@db1:22', 'ssh ended with 2', new Date('2026-11-29T12:00:00Z'));
    expect(readPlainHosts(file)).toEqual({
      hosts: [
        { key: 'bob@gw:2200', when: '2026-11-29T11:00:00.000Z', why: 'ssh ended with 1' },
        { key: 'alice@db1:22', when: '2026-11-29T12:00:00.000Z', why: 'ssh ended with 2' },
      ],
      problems: [],
    });
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines.filter((line) => line.startsWith('#')).length).toBeGreaterThan(0);
    expect(lines).toContain('alice@db1:22\t2026-11-29T12:00:00.000Z\tssh ended with 2');
  });

  it(`keeps at most ${MAX_PLAIN_HOSTS} servers, dropping the oldest`, () => {
    for (let i = 0; i <= MAX_PLAIN_HOSTS; i++) rememberPlainHost(file, `u@h${i}:22`, 'x');
    const { hosts } = readPlainHosts(file);
    expect(hosts).toHaveLength(MAX_PLAIN_HOSTS);
    expect(hosts[0]!.key).toBe('u@h1:22');
    expect(hosts.at(-1)!.key).toBe(`u@h${MAX_PLAIN_HOSTS}:22`);
  });

  it('refuses to remember something that is not user@hostname:port', () => {
    expect(() => rememberPlainHost(file, 'alice@db1', 'x')).toThrow(/user@hostname:port/);
    expect(() => rememberPlainHost(file, 'a b@db1:22', 'x')).toThrow();
    expect(existsSync(file)).toBe(false);
  });

  it('a missing file is empty; a broken line is skipped with a reason and kept aside when the file is rewritten', () => {
    expect(readPlainHosts(file)).toEqual({ hosts: [], problems: [] });
    rememberPlainHost(file, 'alice@db1:22', 'x');
    writeFileSync(file, `${readFileSync(file, 'utf8')}{"not": "a host"}\n`);
    const read = readPlainHosts(file);
    expect(read.hosts.map((host) => host.key)).toEqual(['alice@db1:22']);
    expect(read.problems).toEqual([expect.stringMatching(/line 4 is not `user@hostname:port`; skipped/)]);
    expect(rememberPlainHost(file, 'bob@gw:22', 'x')).toHaveLength(1);
    expect(readPlainHosts(file)).toMatchObject({ hosts: [{ key: 'alice@db1:22' }, { key: 'bob@gw:22' }], problems: [] });
    expect(readFileSync(`${file}.broken`, 'utf8')).toContain('{"not": "a host"}');
  });

  // Root reads any file.
  it.skipIf(process.getuid?.() === 0)('an unreadable file is reported, never thrown', () => {
    rememberPlainHost(file, 'alice@db1:22', 'x');
    chmodSync(file, 0);
    expect(readPlainHosts(file).problems).toEqual([expect.stringMatching(/cannot read/)]);
  });

  it('forgets by key or by host name (every user and port on it)', () => {
    for (const key of ['alice@db1:22', 'bob@db1:2200', 'carol@gw:22']) rememberPlainHost(file, key, 'x');
    expect(forgetPlainHost(file, 'nowhere').removed).toEqual([]);
    expect(forgetPlainHost(file, 'carol@gw:22').removed).toEqual(['carol@gw:22']);
    expect(forgetPlainHost(file, 'DB1').removed).toEqual(['alice@db1:22', 'bob@db1:2200']);
    expect(readPlainHosts(file).hosts).toEqual([]);
  });
});
