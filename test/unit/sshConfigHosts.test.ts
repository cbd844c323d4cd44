import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { splitConfigLine } from '../../src/main/ssh/sshConfigLine';
import { readSshConfigHosts } from '../../src/main/ssh/sshConfigHosts';

let home: string;

function write(relative: string, text: string): void {
  const path = join(home, '.ssh', relative);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'tandem-ssh-config-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('readSshConfigHosts', () => {
  it('lists each alias of a Host line with its HostName, User and Port, skipping patterns', async () => {
    write(
      'config',
      [
        '# my servers',
        'Host web1 web2 web3',
        '  HostName 10.0.0.5',
        '  User deploy',
        '  Port 2222',
        '',
        'Host *.internal !bastion ?db',
        '  User nobody',
        'Host *',
        '  ServerAliveInterval 30',
        'Host bastion',
        '  HostName bastion.example.com',
      ].join('\n'),
    );
    const list = await readSshConfigHosts(home);
    expect(list.problems).toEqual([]);
    expect(list.hosts).toEqual([
      { alias: 'web1', hostName: '10.0.0.5', user: 'deploy', port: 2222 },
      { alias: 'web2', hostName: '10.0.0.5', user: 'deploy', port: 2222 },
      { alias: 'web3', hostName: '10.0.0.5', user: 'deploy', port: 2222 },
      { alias: 'bastion', hostName: 'bastion.example.com' },
    ]);
  });

  it('reads the = syntax, quoted values, trailing comments, CRLF lines and any keyword case', async () => {
    write(
      'config',
      ['Host=alpha', 'hostname = "alpha.example.com"', 'USER="jane doe"', 'Host beta # the second one', '\tPort=22', 'Host "gamma"', ' HostName gamma.lan'].join('\r\n') + '\r\n',
    );
    const { hosts } = await readSshConfigHosts(home);
    expect(hosts).toEqual([
      { alias: 'alpha', hostName: 'alpha.example.com', user: 'jane doe' },
      { alias: 'beta', port: 22 },
      { alias: 'gamma', hostName: 'gamma.lan' },
    ]);
  });

  it('follows Include globs relative to ~/.ssh, absolute and ~ paths, in sorted order, and lists a host once', async () => {
    write('config', ['Include config.d/*', 'Host first', '  HostName one', 'Include ~/.ssh/extra.conf', 'Host after'].join('\n'));
    write('config.d/20-b', 'Host b-host\n  User bee\nHost first\n  User later\n');
    write('config.d/10-a', 'Host a-host\nHost first\n  Port 2200\n');
    write('extra.conf', 'Host extra\n');
    const { hosts, problems } = await readSshConfigHosts(home);
    expect(problems).toEqual([]);
    expect(hosts.map((host) => host.alias)).toEqual(['a-host', 'first', 'b-host', 'extra', 'after']);
    // The first block naming an alias sets each value; later blocks only fill in what it left.
    expect(hosts.find((host) => host.alias === 'first')).toEqual({ alias: 'first', port: 2200, user: 'later', hostName: 'one' });
  });

  it('skips an Include naming a directory with a note, and a missing named Include silently, as ssh does', async () => {
    mkdirSync(join(home, '.ssh', 'conf.d'), { recursive: true });
    write('config', 'Include conf.d\nInclude nowhere/*.conf missing.conf\nHost solo\n');
    const { hosts, problems } = await readSshConfigHosts(home);
    expect(hosts).toEqual([{ alias: 'solo' }]);
    expect(problems).toEqual([`${join(home, '.ssh', 'conf.d')} is a directory, not a config file; it was skipped`]);
  });

  it('ends an Include cycle at the nesting limit instead of looping', async () => {
    write('config', 'Host top\nInclude loop.conf\n');
    write('loop.conf', 'Host looped\nInclude loop.conf\n');
    const { hosts, problems } = await readSshConfigHosts(home);
    expect(hosts.map((host) => host.alias)).toEqual(['top', 'looped']);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/nested more than 16 deep/);
  });

  it('skips Match blocks: their settings belong to no listed host and their Includes are not followed', async () => {
    write('config', ['Host web', 'Match host web exec "true"', '  User matched', '  Include matched.conf', 'Host db', '  User dba'].join('\n'));
    write('matched.conf', 'Host hidden\n');
    const { hosts } = await readSshConfigHosts(home);
    expect(hosts).toEqual([{ alias: 'web' }, { alias: 'db', user: 'dba' }]);
  });

  it('gives an empty list and the reason when there is no config, and does not throw', async () => {
    const list = await readSshConfigHosts(home);
    expect(list.hosts).toEqual([]);
    expect(list.problems).toEqual([`there is no ${join(home, '.ssh', 'config')}`]);
  });

  it.skipIf(process.getuid?.() === 0)('says which file could not be read and keeps the hosts of the others', async () => {
    write('config', 'Host kept\nInclude secret.conf\n');
    write('secret.conf', 'Host unseen\n');
    chmodSync(join(home, '.ssh', 'secret.conf'), 0o000);
    const { hosts, problems } = await readSshConfigHosts(home);
    expect(hosts).toEqual([{ alias: 'kept' }]);
    expect(problems).toEqual([`${join(home, '.ssh', 'secret.conf')} could not be read (EACCES)`]);
  });

  it('ignores a Port that is not a port number and an alias that would read as an option', async () => {
    write('config', 'Host ok -oProxyCommand=evil\n  Port ssh\n');
    expect((await readSshConfigHosts(home)).hosts).toEqual([{ alias: 'ok' }]);
  });
});

describe('splitConfigLine', () => {
  it('splits as OpenSSH does', () => {
    expect(splitConfigLine('  # comment')).toEqual([]);
    expect(splitConfigLine('')).toEqual([]);
    expect(splitConfigLine('Host a b\tc')).toEqual(['Host', 'a', 'b', 'c']);
    expect(splitConfigLine('Host=a')).toEqual(['Host', 'a']);
    expect(splitConfigLine('Host = a # note')).toEqual(['Host', 'a']);
    expect(splitConfigLine('HostName "a b" \'c d\'')).toEqual(['HostName', 'a b', 'c d']);
    expect(splitConfigLine('User a\\ b')).toEqual(['User', 'a b']);
    expect(splitConfigLine('Host a#b')).toEqual(['Host', 'a#b']);
    expect(splitConfigLine('Host "open')).toBeUndefined();
  });
});
