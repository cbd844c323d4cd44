import fc from 'fast-check';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveAppFile } from '../../src/main/electron/appFiles';
import { tandemArguments } from '../../src/main/electron/launchArguments';
import { sandboxWarnings } from '../../src/main/electron/sandboxWarning';

describe('tandemArguments', () => {
  it('skips the switches a launcher puts in front, and the app path of `electron <app>`', () => {
    expect(tandemArguments(['/opt/Tandem/tandem'], false)).toEqual([]);
    expect(tandemArguments(['/opt/Tandem/tandem', '--no-sandbox'], false)).toEqual([]);
    expect(tandemArguments(['/opt/Tandem/tandem', '--no-sandbox', 'web', '--port', '0'], false)).toEqual(['web', '--port', '0']);
    expect(tandemArguments(['electron', '--inspect=0', '--remote-debugging-port=0', '/app'], true)).toEqual([]);
    expect(tandemArguments(['electron', '/app', '--enable-logging', 'policy', 'check', '--', 'ls'], true)).toEqual(['policy', 'check', '--', 'ls']);
  });

  it("keeps Tandem's own flags", () => {
    expect(tandemArguments(['/opt/Tandem/tandem', '--no-sandbox', '--version'], false)).toEqual(['--version']);
    expect(tandemArguments(['/opt/Tandem/tandem', '--help'], false)).toEqual(['--help']);
    expect(tandemArguments(['electron', '/app', '-v'], true)).toEqual(['-v']);
  });
});

describe('resolveAppFile', () => {
  const root = join(sep, 'opt', 'Tandem', 'out', 'renderer');

  it('maps tandem://app paths into the renderer directory', () => {
    expect(resolveAppFile(root, 'tandem://app/index.html')).toBe(join(root, 'index.html'));
    expect(resolveAppFile(root, 'tandem://app/')).toBe(join(root, 'index.html'));
    expect(resolveAppFile(root, 'tandem://app/assets/index-abc.js?x=1#y')).toBe(join(root, 'assets/index-abc.js'));
  });

  it('refuses other hosts, other schemes and anything outside the directory', () => {
    // An encoded dot segment is a dot segment to the URL parser: it stays inside.
    expect(resolveAppFile(root, 'tandem://app/%2e%2e/main/index.js')).toBe(join(root, 'main/index.js'));
    for (const url of ['tandem://other/index.html', 'file:///opt/Tandem/out/renderer/index.html', 'tandem://app/..%2fmain%2findex.js', 'tandem://app/..%2f..%2fetc/passwd', 'tandem://app/%00', 'tandem://app/%E0%A4%A', 'not a url']) {
      expect(resolveAppFile(root, url), url).toBeUndefined();
    }
  });

  it('never resolves outside the directory, whatever the path', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('..', '.', '%2e%2e', '%2F', 'a', 'b.js', '', '%5c', '\\'), { maxLength: 8 }), (parts) => {
        const file = resolveAppFile(root, `tandem://app/${parts.join('/')}`);
        return file === undefined || file.startsWith(root + sep);
      }),
    );
  });
});

describe('sandboxWarnings', () => {
  it('warns when Chromium was told to run without its sandbox, and only then', () => {
    expect(sandboxWarnings(() => false, {})).toEqual([]);
    expect(sandboxWarnings((name) => name === 'no-sandbox', {}).map((warning) => warning.key)).toEqual(['sandbox-off']);
    expect(sandboxWarnings(() => false, { ELECTRON_DISABLE_SANDBOX: '1' })).toHaveLength(1);
  });
});
