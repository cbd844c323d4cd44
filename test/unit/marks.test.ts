import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { interpretOsc } from '../../src/main/osc/marks';
import { percentDecode, percentEncode } from '../../src/main/osc/percentEncoding';

const osc = (id: number, payload: string) => interpretOsc({ id, payload, end: 0 });

describe('interpretOsc', () => {
  it('reads our own marks with their nonce and command line', () => {
    expect(osc(133, 'A;tandem=n')).toEqual({ kind: 'prompt-start', nonce: 'n' });
    expect(osc(133, 'A;tandem=n;cwd=/a%20b;prompt=7')).toEqual({ kind: 'prompt-start', nonce: 'n', cwd: '/a b', prompt: '7' });
    expect(osc(133, 'B;tandem=n')).toEqual({ kind: 'input-start', nonce: 'n' });
    expect(osc(133, 'C;tandem=n;cmdline_url=echo%20%22a%3Bb%22')).toEqual({
      kind: 'command-start',
      nonce: 'n',
      commandLine: 'echo "a;b"',
    });
    expect(osc(133, 'D;130;tandem=n')).toEqual({ kind: 'command-end', nonce: 'n', exitCode: 130 });
    expect(osc(133, 'C;tandem=n;cmdline_url=ls;cwd=/srv/a%3Bb%20c')).toEqual({
      kind: 'command-start',
      nonce: 'n',
      commandLine: 'ls',
      cwd: '/srv/a;b c',
    });
  });

  it('reads foreign OSC 133 from fish 4 and prompt frameworks', () => {
    expect(osc(133, 'A;aid=123;cl=m')).toEqual({ kind: 'prompt-start', nonce: undefined });
    expect(osc(133, 'D;0;aid=123')).toEqual({ kind: 'command-end', nonce: undefined, exitCode: 0 });
    expect(osc(133, 'D')).toEqual({ kind: 'command-end', nonce: undefined, exitCode: undefined });
    expect(osc(133, 'C')).toEqual({ kind: 'command-start', nonce: undefined, commandLine: undefined });
    expect(osc(133, 'Z')).toBeUndefined();
  });

  it('reads VS Code OSC 633 marks, command lines and cwd', () => {
    expect(osc(633, 'E;echo a\\x3bb\\\\c;xyz')).toEqual({ kind: 'command-line', commandLine: 'echo a;b\\c', nonce: 'xyz' });
    expect(osc(633, 'D;2')).toEqual({ kind: 'command-end', nonce: undefined, exitCode: 2 });
    expect(osc(633, 'P;Cwd=/tmp/x')).toEqual({ kind: 'cwd', path: '/tmp/x' });
    expect(osc(633, 'P;IsWindows=False')).toBeUndefined();
  });

  it('reads OSC 7 in file:// and kitty-shell-cwd:// forms (keeping the host), and OSC 1337 CurrentDir', () => {
    expect(osc(7, 'file://myhost/home/me/dir%20with%20spaces')).toEqual({ kind: 'cwd', path: '/home/me/dir with spaces', host: 'myhost' });
    expect(osc(7, 'file:///tmp')).toEqual({ kind: 'cwd', path: '/tmp' });
    expect(osc(7, 'kitty-shell-cwd://host/tmp/100%')).toEqual({ kind: 'cwd', path: '/tmp/100%', host: 'host' });
    expect(osc(1337, 'CurrentDir=/srv')).toEqual({ kind: 'cwd', path: '/srv' });
    expect(osc(7, 'http://evil/x')).toBeUndefined();
  });

  it("keeps OSC 7's host a one-line label: control characters dropped, nothing left is no host", () => {
    // The host names a remote block (gutter, status bar, history): what a remote prints must not reach them as escapes.
    expect(osc(7, 'file://db1%1B%5B31m%0A/tmp')).toEqual({ kind: 'cwd', path: '/tmp', host: 'db1[31m' });
    expect(osc(7, 'file://%07%1B/tmp')).toEqual({ kind: 'cwd', path: '/tmp' });
  });

  it("reads our environment reports (OSC 6973): values decoded, a bare name is unset, bad names dropped", () => {
    expect(osc(6973, 'env;tandem=n;VIRTUAL_ENV=/a%20b%3Bc;NODE_ENV;TERM=;bad-name=x;1X=y')).toEqual({
      kind: 'environment',
      nonce: 'n',
      values: new Map([
        ['VIRTUAL_ENV', '/a b;c'],
        ['NODE_ENV', undefined],
        ['TERM', ''],
      ]),
    });
    expect(osc(6973, 'env;VIRTUAL_ENV=/x')).toEqual({ kind: 'environment', nonce: undefined, values: new Map([['VIRTUAL_ENV', '/x']]) });
    expect(osc(6973, 'other;tandem=n')).toBeUndefined();
  });

  it('property: any exported value survives the report encoding', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (value) => {
        const mark = osc(6973, `env;tandem=n;NAME=${percentEncode(value)}`);
        expect(mark?.kind === 'environment' && mark.values.get('NAME')).toBe(value);
      }),
    );
  });
});

describe('percent encoding', () => {
  it('round-trips any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (text) => {
        expect(percentDecode(percentEncode(text))).toBe(text);
      }),
    );
  });

  it('leaves no separator, control character or non-ASCII byte in the encoded form', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        expect(percentEncode(text)).toMatch(/^[\x21-\x7e]*$/);
        expect(percentEncode(text)).not.toMatch(/;/);
      }),
    );
  });

  it('keeps a malformed escape as text', () => {
    expect(percentDecode('100%zz%4')).toBe('100%zz%4');
  });

  it('reads the ssh bootstrap OSC 6973: start (with its nonce), request and fallback, by connection id', () => {
    expect(osc(6973, 'ssh;start;tandem=n0nce123;conn=0123456789abcdef;dest=bob%40db1')).toEqual({ kind: 'ssh-start', nonce: 'n0nce123', conn: '0123456789abcdef', dest: 'bob@db1' });
    expect(osc(6973, 'ssh;request;conn=0123456789abcdef;user=bob;host=db1;os=Linux;arch=x86_64;shell=/bin/bash')).toEqual({
      kind: 'ssh-request',
      conn: '0123456789abcdef',
      remote: { user: 'bob', host: 'db1', os: 'Linux', arch: 'x86_64', shell: '/bin/bash' },
    });
    expect(osc(6973, 'ssh;fallback;conn=0123456789abcdef;reason=shell;host=db1')).toEqual({ kind: 'ssh-fallback', conn: '0123456789abcdef', reason: 'shell', host: 'db1' });
    expect(osc(6973, 'ssh;start;tandem=n0nce123;conn=0123456789abcdef;dest=db1;key=bob%40db1%3A22')).toMatchObject({ kind: 'ssh-start', key: 'bob@db1:22' });
    expect(osc(6973, 'ssh;end;tandem=n0nce123;conn=0123456789abcdef;status=1')).toEqual({ kind: 'ssh-end', nonce: 'n0nce123', conn: '0123456789abcdef', status: 1 });
    for (const status of ['', '-1', '256', '1.5', 'x']) expect(osc(6973, `ssh;end;tandem=n;conn=0123456789abcdef;status=${status}`)).toBeUndefined();
    // No or a malformed connection id, an unknown verb: nothing.
    expect(osc(6973, 'ssh;request;user=bob')).toBeUndefined();
    expect(osc(6973, 'ssh;request;conn=../../x')).toBeUndefined();
    expect(osc(6973, 'ssh;hello;conn=0123456789abcdef')).toBeUndefined();
    // The remote $HOME: kept when absolute and without `..`.
    expect(osc(6973, 'ssh;request;conn=0123456789abcdef;user=svc;host=db1;home=%2Fsrv%2Fsvc')).toMatchObject({ remote: { user: 'svc', home: '/srv/svc' } });
    for (const home of ['relative', '%2Fsrv%2F..%2Froot', ''])
      expect((osc(6973, `ssh;request;conn=0123456789abcdef;host=db1;home=${home}`) as { remote: object }).remote).not.toHaveProperty('home');
    // Control characters in a label are dropped.
    expect(osc(6973, 'ssh;request;conn=0123456789abcdef;host=a%1B%5Bb')).toMatchObject({ remote: { host: 'a[b' } });
  });
});
