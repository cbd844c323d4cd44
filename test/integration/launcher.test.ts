import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * `tandem` with no arguments, run by real Node from a copy of the launcher in a scratch
 * checkout (a built stand-in engine; the electron package with or without its binary), so
 * the machine's own Electron never matters.
 */

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const scratch: string[] = [];
afterEach(() => scratch.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function checkout(electron: 'package without binary' | 'no package'): string {
  const root = mkdtempSync(join(tmpdir(), 'tandem-launcher-'));
  scratch.push(root);
  mkdirSync(join(root, 'bin'));
  copyFileSync(join(repo, 'bin/tandem.js'), join(root, 'bin/tandem.js'));
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'tandem', type: 'module' }));
  mkdirSync(join(root, 'out/main'), { recursive: true });
  writeFileSync(join(root, 'out/main/cli.js'), 'export async function main(args) { console.log(`cli ${args.join(" ")}`); }\n');
  if (electron === 'package without binary') {
    mkdirSync(join(root, 'node_modules/electron'), { recursive: true });
    writeFileSync(join(root, 'node_modules/electron/package.json'), JSON.stringify({ name: 'electron', version: '45.3.4' }));
  }
  return root;
}

function run(script: string, cwd: string, env: NodeJS.ProcessEnv = {}) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('npm_') && name !== 'ELECTRON_OVERRIDE_DIST_PATH'));
  const result = spawnSync(process.execPath, [script], { cwd, env: { ...clean, ...env }, encoding: 'utf8' });
  return { code: result.status, stderr: result.stderr, stdout: result.stdout };
}

describe('the launcher without an Electron binary', () => {
  it('from a checkout: says npm install does not fetch it, how to download it, and the browser mode as typed', () => {
    const root = checkout('package without binary');
    const { code, stderr } = run('bin/tandem.js', root);
    expect(code).toBe(1);
    expect(stderr).toContain(`Electron's binary is not downloaded yet (looked for ${join(root, 'node_modules/electron/dist/electron')})`);
    expect(stderr).toContain('`npm install` does not fetch it. Download it once (Electron 45.3.4, about 100 MB, needs internet access):\n    npx install-electron\n');
    expect(stderr).toContain('then run `node bin/tandem.js` again');
    expect(stderr).toContain('Browser mode needs no Electron: `node bin/tandem.js web`');
    expect(stderr).not.toContain('tandem web`');
  });

  it('through npm start: suggests npm start and npm run web', () => {
    const root = checkout('package without binary');
    const { stderr } = run('bin/tandem.js', root, { npm_lifecycle_event: 'start', npm_package_name: 'tandem' });
    expect(stderr).toContain('then run `npm start` again');
    expect(stderr).toContain('`npm run web` prints an address');
  });

  it('through a `tandem` on the PATH, from another directory: a download command that works from there, and `tandem web`', () => {
    const root = checkout('package without binary');
    const elsewhere = mkdtempSync(join(tmpdir(), 'tandem-path-'));
    scratch.push(elsewhere);
    symlinkSync(join(root, 'bin/tandem.js'), join(elsewhere, 'tandem'));
    const { stderr } = run(join(elsewhere, 'tandem'), elsewhere);
    expect(stderr).toContain(`    node ${join(root, 'node_modules/electron/install.js')}\n`);
    expect(stderr).toContain('then run `tandem` again');
    expect(stderr).toContain('`tandem web` prints an address');
  });

  it('without the electron package at all: says so and points to the packages and the browser mode', () => {
    const root = checkout('no package');
    const { code, stderr } = run('bin/tandem.js', root);
    expect(code).toBe(1);
    expect(stderr).toContain('Electron is not installed with this copy of Tandem');
    expect(stderr).toContain('`node bin/tandem.js web`');
  });

  it('with ELECTRON_OVERRIDE_DIST_PATH pointing at no build: names it', () => {
    const root = checkout('package without binary');
    const { stderr } = run('bin/tandem.js', root, { ELECTRON_OVERRIDE_DIST_PATH: join(root, 'nothing-here') });
    expect(stderr).toContain(`ELECTRON_OVERRIDE_DIST_PATH is ${join(root, 'nothing-here')}, but there is no Electron executable at ${join(root, 'nothing-here/electron')}`);
  });

  it('starts the Electron build it finds, with the app directory, and runs subcommands under Node', () => {
    const root = checkout('package without binary');
    const dist = join(root, 'electron-build');
    mkdirSync(dist);
    writeFileSync(join(dist, 'electron'), `#!/bin/sh\necho "electron $*"\n`);
    chmodSync(join(dist, 'electron'), 0o755);
    const started = run('bin/tandem.js', root, { ELECTRON_OVERRIDE_DIST_PATH: dist });
    expect(started).toMatchObject({ code: 0, stdout: `electron ${join(root, 'bin/..')}\n` });
    const web = spawnSync(process.execPath, ['bin/tandem.js', 'web', '--no-open'], { cwd: root, encoding: 'utf8' });
    expect(web.stdout).toBe('cli web --no-open\n');
  });

  it('tells the same story as the README, whose commands exist in this checkout', () => {
    const readme = readFileSync(join(repo, 'README.md'), 'utf8');
    for (const command of ['npx install-electron', 'npm run web', 'node bin/tandem.js web', 'tandem web']) expect(readme).toContain(command);
    expect(readme).not.toMatch(/downloaded on first launch/);
    const scripts = (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.web).toContain('node bin/tandem.js web');
    expect(scripts.start).toContain('node bin/tandem.js');
    expect(readFileSync(join(repo, 'node_modules/.bin/install-electron'), 'utf8')).toContain('downloadArtifact');
  });
});
