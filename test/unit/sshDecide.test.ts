import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import ptyModule from 'node-pty';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPlainHostKey } from '../../src/main/ssh/plainHosts';
import { shellTimeout } from '../support/shellTimeout';

const DECIDE = resolve(dirname(fileURLToPath(import.meta.url)), '../../assets/shell-integration/ssh/decide.sh');

const onPath = (program: string): boolean => spawnSync('sh', ['-c', 'command -v "$0"', program]).status === 0;
const binShIsDash = existsSync('/bin/sh') && realpathSync('/bin/sh').endsWith('/dash');
/** The POSIX shells the script must run under: /bin/sh, dash, bash in POSIX mode, BusyBox ash. */
const SHELLS: { name: string; argv: string[]; present: boolean }[] = [
  { name: '/bin/sh', argv: ['/bin/sh'], present: existsSync('/bin/sh') },
  ...(binShIsDash ? [] : [{ name: 'dash', argv: ['dash'], present: onPath('dash') }]),
  { name: 'bash --posix', argv: ['bash', '--posix'], present: onPath('bash') },
  { name: 'busybox sh', argv: ['busybox', 'sh'], present: onPath('busybox') },
];
const PRESENT_SHELLS = SHELLS.filter((shell) => shell.present);

let work: string;
/** An ssh that reads only an empty configuration, so nobody's ~/.ssh/config or /etc/ssh changes the answers. */
let hermeticSsh: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'sshargs28-decide-'));
  writeFileSync(join(work, 'empty_config'), '');
  hermeticSsh = join(work, 'ssh-with-empty-config');
  writeFileSync(hermeticSsh, `#!/bin/sh\nexec ssh -F '${join(work, 'empty_config')}' "$@"\n`);
  chmodSync(hermeticSsh, 0o755);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface RunOptions {
  shell?: string[];
  /** SSH_DECIDE_SSH; undefined: `ssh` on PATH. */
  ssh?: string;
  cwd?: string;
  assumeTty?: boolean;
  /** SSH_DECIDE_PLAIN_HOSTS: the file of hosts remembered as refusing the bootstrap. */
  plainHosts?: string;
}

/**
 * Runs decide.sh with `argv` as ssh's arguments; checks the contract (exit 0, nothing on
 * stderr, one line) and returns the line, `wrap` without its key (see decideLine).
 */
function decide(argv: string[], options: RunOptions = {}): string {
  return decideLine(argv, options).replace(/^wrap .*/, 'wrap');
}

/** The line itself: `wrap USER@HOST:PORT` or `pass REASON`. */
function decideLine(argv: string[], { shell = ['/bin/sh'], ssh = hermeticSsh, cwd = work, assumeTty = true, plainHosts }: RunOptions = {}): string {
  const env: NodeJS.ProcessEnv = { ...process.env, SSH_DECIDE_SSH: ssh, SSH_DECIDE_PLAIN_HOSTS: plainHosts };
  if (ssh === undefined) delete env.SSH_DECIDE_SSH;
  if (plainHosts === undefined) delete env.SSH_DECIDE_PLAIN_HOSTS;
  const run = spawnSync(shell[0]!, [...shell.slice(1), DECIDE, ...(assumeTty ? ['--assume-tty'] : []), ...argv], { cwd, env, encoding: 'utf8', timeout: shellTimeout(20_000) });
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  expect(run.stdout).toMatch(/^(wrap \S+|pass [a-z-]+)\n$/);
  const line = run.stdout.trimEnd();
  // The engine keeps only keys it can write one to a line; a wrap's key must be one of them.
  if (line.startsWith('wrap ')) expect(isPlainHostKey(line.slice('wrap '.length)), line).toBe(true);
  return line;
}

const words = (line: string): string[] => (line === '' ? [] : line.split(' '));

/**
 * Real-world command lines (after `ssh`) and what Tandem does with them. Strings are split at
 * spaces; arrays are argv as a shell would pass it.
 */
const TABLE: [string | string[], string][] = [
  // research28 §3's table
  ['host', 'wrap'],
  ['user@host', 'wrap'],
  ['-p 2222 user@host', 'wrap'],
  ['-p2222 -i /home/u/.ssh/id_ed25519 user@host', 'wrap'],
  ['-J bastion user@host', 'wrap'],
  ['-J alice@bastion:2200,bob@b2 host', 'wrap'],
  ['-o Port=2222 -o User=alice host', 'wrap'],
  ['-oStrictHostKeyChecking=no host', 'wrap'],
  ['-A -X -C host', 'wrap'],
  ['-v host', 'wrap'],
  ['-l alice host', 'wrap'],
  ['host -p 2222', 'wrap'],
  ['host -l alice', 'wrap'],
  ['ssh://alice@host:2222', 'wrap'],
  ['alice@host:2222', 'pass colon-in-host'],
  ['-t host', 'wrap'],
  ['-tt host', 'wrap'],
  ['host ls -l', 'pass remote-command'],
  ['-t host top', 'pass remote-command'],
  ['host -- ls', 'pass remote-command'],
  ['-- host', 'wrap'],
  ['-- host -l alice', 'pass remote-command'],
  [['-o', 'RemoteCommand=tmux new -A -s main', 'host'], 'pass remote-command'],
  ['-o RemoteCommand=none host', 'wrap'],
  ['-o RequestTTY=no host', 'pass no-tty'],
  ['-o SessionType=none host', 'pass session-type'],
  ['-N -L 8080:localhost:80 host', 'pass no-session'],
  ['-fN -D 1080 host', 'pass background'],
  ['-W localhost:22 bastion', 'pass stdio-forward'],
  ['-O check host', 'pass mux-control'],
  ['-O exit host', 'pass mux-control'],
  ['-T git@github.com', 'pass no-tty'],
  ['-G host', 'pass no-connection'],
  ['-V', 'pass no-connection'],
  ['-Q cipher', 'pass no-connection'],
  ['-s host sftp', 'pass subsystem'],
  ['-n host', 'pass stdin-null'],
  ['-L8080:localhost:80 host', 'wrap'],
  ['-R 9000:localhost:9000 host', 'wrap'],
  ['-M -S /tmp/ctl host', 'wrap'],
  ['-S /tmp/ctl host', 'wrap'],
  ['-E ssh.log host', 'wrap'],
  ['-F /dev/null host', 'wrap'],
  ['-e none host', 'wrap'],
  ['-xq host', 'wrap'],
  ['-4 -c aes256-gcm@openssh.com -m hmac-sha2-256 host', 'wrap'],
  ['-k host', 'wrap'],
  ['', 'pass usage'],
  ['-p', 'pass usage'],
  ['-Y host xterm', 'pass remote-command'],
  // -o RemoteCommand and friends: `=` or space, attached or not, any case; the first value wins
  [['-o', 'RemoteCommand tmux attach', 'host'], 'pass remote-command'],
  ['-oRemoteCommand=htop host', 'pass remote-command'],
  ['-o remotecommand=htop host', 'pass remote-command'],
  [['-o', '  RemoteCommand = NONE ', 'host'], 'wrap'],
  ['-o RemoteCommand=none -o RemoteCommand=htop host', 'wrap'],
  ['-o RemoteCommand=htop -o RemoteCommand=none host', 'pass remote-command'],
  ['host -o RemoteCommand=htop', 'pass remote-command'],
  ['-o SessionType=subsystem host', 'pass session-type'],
  ['-o sessiontype=NONE host', 'pass session-type'],
  ['-o SessionType=default host', 'wrap'],
  ['-o RequestTTY=false host', 'pass no-tty'],
  [['-o', 'RequestTTY\tno', 'host'], 'pass no-tty'],
  ['-o RequestTTY=yes host', 'wrap'],
  ['-o RequestTTY=force host', 'wrap'],
  ['-o ForkAfterAuthentication=yes host', 'pass background'],
  ['-oStdinNull=yes host', 'pass stdin-null'],
  ['-o StdinNull=no host', 'wrap'],
  // --, and options after the destination
  ['-t -- host', 'wrap'],
  ['host --', 'wrap'],
  ['-- -p 2222 host', 'pass remote-command'],
  ['-tt host bash -l', 'pass remote-command'],
  ['-p 2222 host -l alice -i /home/u/.ssh/key', 'wrap'],
  ['host -p 2222 uptime', 'pass remote-command'],
  ['host1 host2', 'pass remote-command'],
  ['-i -- -p 2222 host', 'wrap'],
  ['-l -- host', 'pass usage'],
  // destinations
  ['alice@host:22', 'pass colon-in-host'],
  ['[::1]:2222', 'pass colon-in-host'],
  // A login or host no server has: plain ssh, which says so.
  [['-l', ' ', 'host'], 'pass odd-name'],
  [['-l', '#root', 'host'], 'pass odd-name'],
  [['-l', 'a#b', 'host'], 'wrap'],
  ['::1', 'wrap'],
  ['alice@::1', 'wrap'],
  ['ssh://host', 'wrap'],
  ['ssh://alice@host', 'wrap'],
  // jump hosts, logs, configurations, control sockets, forwards
  ['-J a,b,c host', 'wrap'],
  ['-J alice@bastion:2200 -p 2222 bob@host', 'wrap'],
  ['-Jbastion host', 'wrap'],
  ['-F /dev/null -p 2222 host', 'wrap'],
  ['-M host', 'wrap'],
  ['-MS ctl host', 'wrap'],
  ['-S ctl -O stop host', 'pass mux-control'],
  ['-oControlMaster=auto -oControlPath=/tmp/c host', 'wrap'],
  ['-D 1080 host', 'wrap'],
  ['-g -L 80:a:80 host', 'wrap'],
  ['-6 -C -o ServerAliveInterval=30 host', 'wrap'],
  ['-B eth0 -b 127.0.0.1 -w 0:0 host', 'wrap'],
  ['-K -a -y host', 'wrap'],
  // bundled flags
  ['-xqt host', 'wrap'],
  ['-vvv host', 'wrap'],
  ['-tN host', 'pass no-session'],
  ['-Nt host', 'pass no-session'],
  ['-qf host cmd', 'pass background'],
  ['-Tq host', 'pass no-tty'],
  // what ssh itself refuses
  ['-z host', 'pass usage'],
  ['--help', 'pass usage'],
  ['--assume-tty host', 'pass usage'],
  ['-', 'pass usage'],
  ['-p abc host', 'pass usage'],
  ['host -i', 'pass usage'],
  ['-W', 'pass usage'],
  ['-1 host', 'pass usage'],
  ['-F /nonexistent/ssh_config host', 'pass usage'],
  [['-o', 'RemoteCommand=', 'host'], 'pass usage'],
];

describe.each(SHELLS)('decide.sh under $name', ({ argv: shell, present }) => {
  it.skipIf(!present).each(TABLE)('ssh %s → %s', (line, expected) => {
    expect(decide(typeof line === 'string' ? words(line) : line, { shell })).toBe(expected);
  });

  it.skipIf(!present)('runs from a shell variable as `sh -c "$text" ssh …`', () => {
    const text = readFileSync(DECIDE, 'utf8');
    const run = (...argv: string[]) => spawnSync(shell[0]!, [...shell.slice(1), '-c', text, 'ssh', '--assume-tty', ...argv], { cwd: work, env: { ...process.env, SSH_DECIDE_SSH: hermeticSsh }, encoding: 'utf8' }).stdout;
    expect([run('host', '-p', '2222'), run('host', 'ls'), run('-fN', 'host')]).toEqual([`wrap ${userInfo().username}@host:2222\n`, 'pass remote-command\n', 'pass background\n']);
  });
});

describe('the effective configuration (ssh -G with the ssh on PATH)', () => {
  const CONFIG = [
    'Host tmux-host',
    '  RemoteCommand tmux new -A -s main',
    'Host quiet-host',
    '  SessionType none',
    'Host notty-host',
    '  RequestTTY no',
    'Host nullin-host',
    '  StdinNull yes',
    'Host plain-host',
    '  RemoteCommand none',
    '  User alice',
    'Host alias:1',
    '  HostName real.example',
  ].join('\n');
  const config = (name: string, text: string): string => {
    const file = join(work, name);
    writeFileSync(file, `${text}\n`);
    return file;
  };

  it.each<[string[], string]>([
    [['tmux-host'], 'pass config-remote-command'],
    [['quiet-host'], 'pass config-session-type'],
    [['notty-host'], 'pass config-request-tty'],
    [['nullin-host'], 'pass config-stdin-null'],
    [['plain-host'], 'wrap'],
    [['other-host'], 'wrap'],
    [['-p', '2222', 'tmux-host'], 'pass config-remote-command'],
    [['tmux-host', '-p', '2222'], 'pass config-remote-command'],
    // What the command line says wins over the file, as in ssh.
    [['-o', 'RemoteCommand=none', 'tmux-host'], 'wrap'],
    [['-o', 'RequestTTY=yes', 'notty-host'], 'wrap'],
    [['-t', 'notty-host'], 'wrap'],
    // A Host alias may hold a colon; the HostName it names is what counts.
    [['alias:1'], 'wrap'],
  ])('ssh -F config %j → %s', (argv, expected) => {
    expect(decide(['-F', config('hosts_config', CONFIG), ...argv], { ssh: undefined })).toBe(expected);
  });

  it('Match all applies to every host', () => {
    const file = config('match_config', 'Match all\n  RequestTTY no');
    expect([decide(['-F', file, 'anyhost'], { ssh: undefined }), decide(['-F', file, '-p', '22', 'alice@other'], { ssh: undefined })]).toEqual(['pass config-request-tty', 'pass config-request-tty']);
  });

  it('ForkAfterAuthentication in the file passes (ssh -G refuses it without a command, newer ssh reports it)', () => {
    const file = config('fork_config', 'Host bg\n  ForkAfterAuthentication yes');
    expect(['pass usage', 'pass config-background']).toContain(decide(['-F', file, 'bg'], { ssh: undefined }));
  });

  it('a configuration ssh cannot read passes as usage, with the reason left to ssh', () => {
    expect(decide(['-F', config('broken_config', 'Host x\n  NoSuchKeyword yes'), 'x'], { ssh: undefined })).toBe('pass usage');
  });

  it('an ssh that cannot be run passes as usage', () => {
    expect([decide(['host'], { ssh: join(work, 'no-such-ssh') }), decide(['host'], { ssh: 'false' })]).toEqual(['pass usage', 'pass usage']);
  });
});

describe('the key and the hosts remembered as plain', () => {
  it('names the server as ssh -G resolves it: user@hostname:port, whatever form was typed', () => {
    for (const argv of [['-p', '2222', 'alice@Example.COM'], ['ssh://alice@example.com:2222'], ['example.com', '-l', 'alice', '-p2222']]) {
      expect(decideLine(argv)).toBe('wrap alice@example.com:2222');
    }
  });

  it('a host in the plain-hosts file passes as plain-host; other hosts, comments and a broken or missing file change nothing', () => {
    const file = join(work, 'ssh-plain-hosts');
    writeFileSync(file, '# comment\nbob@db1:22\t2026-11-29T18:00:00Z\texit 1\n\u0000\u00ff garbage\nalice@example.com:2222');
    expect(decideLine(['-p', '2222', 'alice@example.com'], { plainHosts: file })).toBe('pass plain-host');
    expect(decideLine(['bob@db1'], { plainHosts: file })).toBe('pass plain-host');
    expect(decideLine(['bob@db1', '-p', '2200'], { plainHosts: file })).toBe('wrap bob@db1:2200');
    expect(decideLine(['carol@db1'], { plainHosts: file })).toBe('wrap carol@db1:22');
    expect(decideLine(['bob@db1'], { plainHosts: join(work, 'no-such-file') })).toBe('wrap bob@db1:22');
    expect(decideLine(['bob@db1'], { plainHosts: work })).toBe('wrap bob@db1:22');
  });
});

describe('terminals', () => {
  it('without --assume-tty, pipes on stdin and stdout pass as not-a-tty, before anything else', () => {
    expect([decide(['host'], { assumeTty: false }), decide(['-V'], { assumeTty: false })]).toEqual(['pass not-a-tty', 'pass not-a-tty']);
  });

  /** Runs `sh -c script` in a real pty with decide.sh as $0; resolves with what it printed. */
  async function inPty(script: string): Promise<string> {
    const env = { ...process.env, SSH_DECIDE_SSH: hermeticSsh } as Record<string, string>;
    const terminal = ptyModule.spawn('/bin/sh', ['-c', script, DECIDE], { cols: 80, rows: 24, cwd: work, env });
    let screen = '';
    terminal.onData((data) => (screen += data));
    await new Promise<void>((resolveExit) => terminal.onExit(() => resolveExit()));
    return screen.replace(/\r/g, '');
  }

  it('in a real terminal it wraps; with stdin or stdout redirected it passes', async () => {
    const out = join(work, 'redirected-out');
    expect(await inPty('sh "$0" host')).toBe(`wrap ${userInfo().username}@host:22\n`);
    expect(await inPty('sh "$0" host </dev/null')).toBe('pass not-a-tty\n');
    expect(await inPty(`sh "$0" host >'${out}'`)).toBe('');
    expect(readFileSync(out, 'utf8')).toBe('pass not-a-tty\n');
  });
});

describe('arguments are data, never code', () => {
  /** A fresh working directory with an empty `marks/` that a payload that ran would write into. */
  const freshDir = (): { dir: string; marks: string } => {
    const dir = mkdtempSync(join(work, 'cwd-'));
    mkdirSync(join(dir, 'marks'));
    return { dir, marks: join(dir, 'marks') };
  };
  const payloads = (marks: string): string[] => [
    `$(touch ${marks}/a)`,
    `\`touch ${marks}/b\``,
    `;touch ${marks}/c`,
    `|touch ${marks}/d`,
    `&& touch ${marks}/e`,
    `$(touch\${IFS}${marks}/f)`,
    `'"$(touch ${marks}/g)"'`,
    `\n touch ${marks}/h`,
  ];

  it.each(PRESENT_SHELLS)('command substitutions and separators in any position do not run ($name)', ({ argv: shell }) => {
    const { dir, marks } = freshDir();
    for (const payload of payloads(marks)) {
      const places = [[payload], [payload, 'host'], ['host', payload], ['-p', payload, 'host'], ['-o', `RemoteCommand=${payload}`, 'host'], [`-o${payload}`, 'host'], ['-J', payload, 'host'], ['--', payload], [`user@${payload}`], ['-o', payload, 'host']];
      for (const argv of places) decide(argv, { shell, cwd: dir });
    }
    expect(readdirSync(marks)).toEqual([]);
  });

  it.each(PRESENT_SHELLS)('globs are not expanded ($name)', ({ argv: shell }) => {
    const { dir } = freshDir();
    // Were `*` or `-?` expanded here, these names would turn the answers into pass no-session / a remote command.
    for (const name of ['-N', '-oRemoteCommand=x', 'zz']) writeFileSync(join(dir, name), '');
    const argvs = [['*'], ['-?'], ['-o', '*', 'host'], ['host', '*'], ['-p', '2222', '[z]*']];
    const empty = freshDir().dir;
    expect(argvs.map((argv) => decide(argv, { shell, cwd: dir }))).toEqual(argvs.map((argv) => decide(argv, { shell, cwd: empty })));
    expect(decide(['-p', '2222', '*'], { shell, cwd: dir })).toBe('wrap');
  });

  it.each(PRESENT_SHELLS)('any argv gives exit 0 and one line, wrap or pass <reason> ($name)', ({ name, argv: shell }) => {
    const { dir, marks } = freshDir();
    const special = fc.constantFrom('-o', '-p', '-l', '-J', '-F', '--', '-', '-N', '-t', '-tt', '-fN', '-oRemoteCommand=none', 'RemoteCommand=x', 'host', 'user@host:22', 'ssh://u@h:2', '*', '?', '[a]', "'", '"', '\\', '\n', ' ', 'a b', '$HOME', '${IFS}', '$((1/0))', '`', '$(', ...payloads(marks));
    const word = fc.oneof(special, fc.string({ maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 6 }));
    // `-E file` makes ssh -G create a log file: keep generated option clusters away from it.
    const argv = fc.array(word, { maxLength: 8 }).map((words) => words.map((w) => w.replace(/\0/g, '')).filter((w) => !/^-[^-]*E/.test(w)));
    fc.assert(
      fc.property(argv, (args) => {
        decide(args, { shell, cwd: dir });
      }),
      { numRuns: name === '/bin/sh' ? 200 : 60 },
    );
    expect(readdirSync(marks)).toEqual([]);
  });
});
