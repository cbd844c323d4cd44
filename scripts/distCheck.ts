// `npm run dist:check`: packs the app for Linux with electron-builder (the repository's own
// electron-builder.yml) against a stand-in Electron, offline, stops each package target right
// before its download-bound tool (fpm, appimagetool), and checks what came out. It fails,
// exit 1, on any problem. See docs/packaging.md.
//
//   jiti scripts/distCheck.ts [--for-tests] [--keep] [--layout DIR]
//     --for-tests   pack a test build, as `npm run dist:e2e` does (the --inspect fuse must be on)
//     --keep        keep the packed output (its path is printed)
//     --layout DIR  judge an already packed app directory (e.g. dist/linux-unpacked)
//                   instead of packing; the .deb/AppImage inputs are not checked then
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ICON_SIZES } from './icons/drawIcon';
import { checkLayout, devOnlyPackages, RULES, type LayoutExpectations, type RuleResult } from './packaging/layoutRules';
import { readPackedLayout, type DebInputs } from './packaging/packedLayout';
import { checkPackagedRuntime } from './packaging/packagedRuntime';
import { makeStandInElectron } from './packaging/standInElectron';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const EXECUTABLE = 'tandem';
const PRODUCT_DIR = 'Tandem';

interface Options {
  forTests: boolean;
  keep: boolean;
  layout: string | undefined;
}

function parseOptions(args: string[]): Options {
  const options: Options = { forTests: false, keep: false, layout: undefined };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--for-tests') options.forTests = true;
    else if (arg === '--keep') options.keep = true;
    else if (arg === '--layout' && args[i + 1]) options.layout = resolve(args[++i]!);
    else fail(`unknown argument ${arg} (use --for-tests, --keep, --layout DIR)`);
  }
  return options;
}

/** A reason the check cannot go on; main prints it and exits 1 (after cleaning up). */
class CheckStopped extends Error {}

function fail(message: string): never {
  throw new CheckStopped(message);
}

/**
 * Packing must never reach the network (here it cannot, and CI must not depend on it):
 * any HTTP request or fetch from this process fails the check, naming what was fetched.
 */
function forbidDownloads(): string[] {
  const attempts: string[] = [];
  const refuse = (what: string): never => {
    attempts.push(what);
    throw new Error(`dist:check forbids downloads; electron-builder tried to fetch ${what}`);
  };
  const describe = (target: unknown): string => (typeof target === 'string' || target instanceof URL ? String(target) : JSON.stringify(target));
  for (const module of [http, https]) {
    module.request = ((target: unknown) => refuse(describe(target))) as typeof module.request;
    module.get = ((target: unknown) => refuse(describe(target))) as typeof module.get;
  }
  globalThis.fetch = ((target: unknown) => Promise.reject(refuse(describe(target)))) as typeof fetch;
  return attempts;
}

function expectations(forTests: boolean): LayoutExpectations {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as LayoutExpectations['repoPackage'];
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as Parameters<typeof devOnlyPackages>[0];
  return {
    executableName: EXECUTABLE,
    productDir: PRODUCT_DIR,
    forTests,
    repoPackage: { version: pkg.version, homepage: pkg.homepage, dependencies: pkg.dependencies },
    devOnlyPackages: devOnlyPackages(lock),
    iconSizes: [...ICON_SIZES],
  };
}

/** Packs with electron-builder into `out`; returns the app directory and what the targets were given. */
async function pack(scratch: string, forTests: boolean): Promise<{ appDir: string; deb?: DebInputs; appImageDesktopEntry?: string }> {
  const electronDist = join(scratch, 'electron');
  await makeStandInElectron(electronDist);
  const out = join(scratch, 'out');
  const { build, Platform } = await import('electron-builder');
  const captured: { deb?: DebInputs; appImageDesktopEntry?: string } = {};
  await build({
    projectDir: root,
    targets: Platform.LINUX.createTarget(['deb', 'AppImage']),
    publish: 'never',
    // Merged over electron-builder.yml, as `-c.…` on electron-builder's command line is.
    config: { electronDist, directories: { output: out }, ...(forTests ? { electronFuses: { enableNodeCliInspectArguments: true } } : {}) },
    // Called by each target with what it would hand to its packaging tool; `true` stops the
    // target there, before it fetches fpm or appimagetool.
    effectiveOptionComputed: async (computed: unknown) => {
      if (Array.isArray(computed) && Array.isArray(computed[0])) {
        const args = computed[0] as string[];
        const read = (flag: string): string => readFileSync(args[args.indexOf(flag) + 1]!, 'utf8');
        if ((args[args.indexOf('--package') + 1] ?? '').endsWith('.deb')) {
          captured.deb = { args, afterInstall: read('--after-install'), afterRemove: read('--after-remove'), desktopEntry: readFileSync(String(computed[1]), 'utf8') };
        }
      } else if (computed && typeof computed === 'object' && 'desktop' in computed) {
        captured.appImageDesktopEntry = String((computed as { desktop: unknown }).desktop);
      }
      return true;
    },
  });
  return { appDir: join(out, 'linux-unpacked'), ...captured };
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const started = Date.now();
  const seconds = (from: number): string => `${((Date.now() - from) / 1000).toFixed(1)} s`;
  const scratch = mkdtempSync(join(tmpdir(), 'tandem-dist-check-'));
  let exitCode = 1;
  try {
    let packed: Awaited<ReturnType<typeof pack>>;
    const rules = options.layout ? RULES.filter((rule) => !/\.deb|AppImage/.test(rule.name)) : RULES;
    if (options.layout) {
      if (!existsSync(join(options.layout, 'resources', 'app.asar'))) fail(`${options.layout} is not a packed app directory (no resources/app.asar)`);
      console.log(`dist:check — checking the packed app in ${options.layout} (the .deb and AppImage inputs are not checked this way)`);
      packed = { appDir: options.layout };
    } else {
      for (const built of ['out/main/index.js', 'out/main/cli.js', 'out/preload/index.cjs', 'out/renderer/index.html']) {
        if (!existsSync(join(root, built))) fail(`${built} is missing: run \`npm run build\` first (npm run dist:check builds)`);
      }
      console.log(`dist:check — packing Tandem for Linux (.deb, AppImage) with a stand-in Electron, offline${options.forTests ? ', as a test build (--inspect fuse on)' : ''}`);
      const attempts = forbidDownloads();
      const packing = Date.now();
      try {
        packed = await pack(scratch, options.forTests);
      } catch (error) {
        fail(`electron-builder failed: ${error instanceof Error ? error.message : String(error)}${attempts.length ? `\n  (it tried to download: ${attempts.join(', ')})` : ''}`);
      }
      if (attempts.length > 0) fail(`electron-builder tried to download: ${attempts.join(', ')}`);
      console.log(`  packed in ${seconds(packing)}: ${packed.appDir}`);
    }

    const show = (found: RuleResult[]): RuleResult[] => {
      for (const result of found) {
        console.log(`  ${result.problems.length === 0 ? '✓' : '✗'} ${result.name}`);
        for (const problem of result.problems) console.log(`      - ${problem}`);
      }
      return found;
    };
    const layout = await readPackedLayout(packed.appDir, EXECUTABLE, packed);
    const results = show(checkLayout(layout, expectations(options.forTests), rules));
    if (results.some((result) => result.problems.length > 0)) {
      // A broken layout cannot be laid out for a run; its problems are the answer.
      results.push(...show([{ name: 'the packed engine runs under Node', problems: ['not tried: the layout has problems (above)'] }]));
    } else {
      const running = Date.now();
      const runtimeScratch = join(scratch, 'runtime');
      mkdirSync(runtimeScratch, { recursive: true });
      const runtime = await checkPackagedRuntime(packed.appDir, runtimeScratch).catch((error: unknown) => [
        { name: 'the packed engine runs under Node', problems: [`could not run it: ${error instanceof Error ? error.message : String(error)}`] },
      ]);
      results.push(...show(runtime));
      console.log(`  (the packed engine ran under Node in ${seconds(running)})`);
    }
    const failed = results.filter((result) => result.problems.length > 0).length;
    if (failed > 0) {
      console.error(`dist:check: FAILED — ${failed} of ${results.length} checks found problems (above) [${seconds(started)}]`);
    } else {
      console.log(`dist:check: all ${results.length} checks passed [${seconds(started)}]`);
      exitCode = 0;
    }
  } catch (error) {
    if (!(error instanceof CheckStopped)) throw error;
    console.error(`dist:check: ${error.message}`);
  } finally {
    if (options.keep) console.log(`  kept: ${scratch}`);
    else rmSync(scratch, { recursive: true, force: true });
  }
  process.exit(exitCode);
}

await main().catch((error: unknown) => {
  console.error(error instanceof CheckStopped ? `dist:check: ${error.message}` : error);
  process.exit(1);
});
