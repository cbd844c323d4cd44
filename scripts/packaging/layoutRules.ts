import { builtinModules } from 'node:module';
import { posix } from 'node:path';
import type { PackedLayout } from './packedLayout';

/** What the packed app must look like; everything else comes from the repository. */
export interface LayoutExpectations {
  /** The executable's name (/opt/<productDir>/<executableName>, /usr/bin/<executableName>). */
  executableName: string;
  productDir: string;
  /** A test build (`npm run dist:e2e`, `dist:check --for-tests`): the --inspect fuse must be on. */
  forTests: boolean;
  /** The repository's package.json. */
  repoPackage: {
    version: string;
    homepage?: string;
    dependencies: Record<string, string>;
  };
  /** Packages that only devDependencies bring in (package-lock.json's `dev: true`). */
  devOnlyPackages: string[];
  /** The icon sizes the .deb must install (assets/icons/NxN.png). */
  iconSizes: number[];
}

export interface Rule {
  name: string;
  /** Problems found; none means the rule holds. */
  check(layout: PackedLayout, expect: LayoutExpectations): string[];
}

/** Fuse indices in the wire (@electron/fuses FuseV1Options) and states (FuseState). */
const FUSE = {
  runAsNode: 0,
  enableCookieEncryption: 1,
  enableNodeOptionsEnvironmentVariable: 2,
  enableNodeCliInspectArguments: 3,
  enableEmbeddedAsarIntegrityValidation: 4,
  onlyLoadAppFromAsar: 5,
  grantFileProtocolExtraPrivileges: 7,
} as const;
const ENABLE = 0x31;
const DISABLE = 0x30;

export const MIRROR_WORKER = /^out\/main\/chunks\/mirrorWorker-[^/]+\.mjs$/;
/** The history owner thread's script, and the small module that names its path (both unpacked). */
export const OWNER_WORKER = /^out\/main\/chunks\/ownerWorker-[^/]+\.mjs$/;
/** What the owner thread requires from beside it, unpacked: node-sqlite3-wasm and its WebAssembly. */
const SQLITE_FILES = ['node_modules/node-sqlite3-wasm/package.json', 'node_modules/node-sqlite3-wasm/dist/node-sqlite3-wasm.js', 'node_modules/node-sqlite3-wasm/dist/node-sqlite3-wasm.wasm'];
/** The worker threads' scripts: each runs unpacked from the asar, so each must import nothing but Node's own modules. */
const WORKERS = [
  { what: 'mirror worker', pattern: MIRROR_WORKER, isScript: () => true },
  // The path module shares the name; the script is the one that takes its worker data.
  { what: 'history owner worker', pattern: OWNER_WORKER, isScript: (text: string) => text.includes('workerData') },
];
const TREE_SITTER_GRAMMAR = 'node_modules/tree-sitter-bash/tree-sitter-bash.wasm';
const TREE_SITTER_RUNTIME = 'node_modules/web-tree-sitter/tree-sitter.wasm';
const PTY_MODULE = 'node_modules/node-pty/build/Release/pty.node';
/** @parcel/watcher's native module for this platform (file_change watchers); dist:check packs for the platform it runs on. */
const FILE_WATCHER_MODULE = `node_modules/@parcel/watcher-${process.platform}-${process.arch}${process.platform === 'linux' ? '-glibc' : ''}/watcher.node`;
const SHELL_SCRIPTS = [
  'assets/shell-integration/bash/tandem.bash',
  'assets/shell-integration/bash/tandem-hooks.bash',
  'assets/shell-integration/zsh/tandem-integration.zsh',
  'assets/shell-integration/fish/tandem.fish',
];
/** app.asar + app.asar.unpacked; about 13 MB today. Far more means something slipped in. */
const SIZE_BUDGET_BYTES = 30 * 1024 * 1024;

function missing(files: readonly string[], required: readonly string[], where: string): string[] {
  const present = new Set(files);
  return required.filter((file) => !present.has(file)).map((file) => `${file} is missing from ${where}`);
}

/** The top-level package a node_modules path belongs to (`@scope/name` or `name`). */
function topLevelPackage(path: string): string | undefined {
  const match = /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  return match?.[1];
}

/** Module specifiers a bundle imports or requires (static, dynamic, side-effect, require). */
export function importedSpecifiers(code: string): string[] {
  const patterns = [
    /\bimport\s[^'"]*?\bfrom\s*["']([^"']+)["']/g,
    /\bimport\s*["']([^"']+)["']/g,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
    /\brequire\s*\(\s*["']([^"']+)["']\s*\)/g,
    /\bexport\s[^'"]*?\bfrom\s*["']([^"']+)["']/g,
  ];
  const found = new Set<string>();
  for (const pattern of patterns) for (const match of code.matchAll(pattern)) found.add(match[1]!);
  return [...found];
}

function isBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || builtinModules.includes(specifier);
}

function desktopValue(entry: string | undefined, key: string): string | undefined {
  return entry?.split('\n').find((line) => line.startsWith(`${key}=`))?.slice(key.length + 1);
}

function argAfter(args: string[], flag: string): string | undefined {
  const at = args.indexOf(flag);
  return at === -1 ? undefined : args[at + 1];
}

export const RULES: Rule[] = [
  {
    name: 'the executable is there, renamed, and Electron is not left behind',
    check(layout, expect) {
      const problems: string[] = [];
      if (!layout.executables.includes(expect.executableName)) problems.push(`no executable ${expect.executableName} in the app directory`);
      if (layout.appDirFiles.includes('electron')) problems.push('the app directory still has an executable named electron');
      if (!layout.appDirFiles.includes('chrome-sandbox')) problems.push("chrome-sandbox (Chromium's setuid sandbox helper) is missing");
      if (layout.appDirFiles.includes('resources/default_app.asar')) problems.push("resources/default_app.asar (Electron's default app) is still in the package");
      return problems;
    },
  },
  {
    name: 'app.asar holds the built app and the package.json, and nothing else of the repository',
    check(layout) {
      if (layout.asarFiles.length === 0) return ['resources/app.asar is missing or empty'];
      const problems = missing(
        layout.asarFiles,
        ['package.json', 'out/main/index.js', 'out/main/cli.js', 'out/preload/index.cjs', 'out/renderer/index.html', ...SHELL_SCRIPTS],
        'app.asar',
      );
      if (!layout.asarFiles.some((file) => /^out\/renderer\/assets\/.+\.js$/.test(file))) problems.push('app.asar has no renderer bundle (out/renderer/assets/*.js)');
      const allowed = [/^package\.json$/, /^out\/(main|preload|renderer)\//, /^assets\/shell-integration\//, /^node_modules\//];
      const strays = layout.asarFiles.filter((file) => !allowed.some((pattern) => pattern.test(file)));
      const shown = [...new Set(strays.map((file) => file.split('/').slice(0, 2).join('/')))].slice(0, 12);
      if (strays.length > 0) problems.push(`app.asar holds ${strays.length} files that are not part of the app: ${shown.join(', ')}`);
      return problems;
    },
  },
  {
    name: 'node_modules holds the production dependencies and no development-only package',
    check(layout, expect) {
      const problems = Object.keys(expect.repoPackage.dependencies)
        .filter((name) => !layout.asarFiles.includes(`node_modules/${name}/package.json`))
        .map((name) => `the dependency ${name} is missing from app.asar (node_modules/${name}/package.json)`);
      const devOnly = new Set(expect.devOnlyPackages);
      const packed = new Set(layout.asarFiles.map(topLevelPackage).filter((name): name is string => !!name));
      const strays = [...packed].filter((name) => devOnly.has(name));
      if (strays.length > 0) problems.push(`development-only packages are in app.asar: ${strays.join(', ')}`);
      return problems;
    },
  },
  {
    name: 'packages carry only what runs (no grammar sources, native build trees, source maps or TypeScript)',
    check(layout) {
      const files = [...layout.asarFiles, ...layout.unpackedFiles];
      const problems: string[] = [];
      const treeSitterBash = files.filter((file) => file.startsWith('node_modules/tree-sitter-bash/'));
      const extra = treeSitterBash.filter(
        (file) => !['LICENSE', 'package.json', 'tree-sitter-bash.wasm'].includes(file.slice('node_modules/tree-sitter-bash/'.length)),
      );
      if (extra.length > 0) problems.push(`tree-sitter-bash ships more than its grammar (.wasm): ${extra.slice(0, 5).join(', ')}${extra.length > 5 ? ', …' : ''}`);
      const ptyExtras = files.filter((file) => /^node_modules\/node-pty\/(src|deps|third_party|prebuilds|scripts)\//.test(file));
      if (ptyExtras.length > 0) problems.push(`node-pty ships sources or other platforms' modules: ${ptyExtras.slice(0, 5).join(', ')}${ptyExtras.length > 5 ? ', …' : ''}`);
      const unrun = files.filter((file) => /\.(map|ts|mts|cts|c|cc|h|gyp)$/.test(file));
      if (unrun.length > 0) problems.push(`${unrun.length} files that never run are packed (source maps, TypeScript, C): ${unrun.slice(0, 5).join(', ')}${unrun.length > 5 ? ', …' : ''}`);
      const total = layout.asarBytes + layout.unpackedBytes;
      if (total > SIZE_BUDGET_BYTES) {
        problems.push(`app.asar and app.asar.unpacked weigh ${(total / 2 ** 20).toFixed(1)} MB, over the ${SIZE_BUDGET_BYTES / 2 ** 20} MB budget`);
      }
      return problems;
    },
  },
  {
    name: 'what must be a real file is unpacked: pty.node, watcher.node, shell integration, the worker threads and node-sqlite3-wasm, the grammar',
    check(layout) {
      const mirrors = layout.asarFiles.filter((file) => MIRROR_WORKER.test(file));
      const owners = layout.asarFiles.filter((file) => OWNER_WORKER.test(file));
      const problems: string[] = [];
      if (mirrors.length !== 1) problems.push(`expected one mirror worker (out/main/chunks/mirrorWorker-*.mjs) in app.asar, found ${mirrors.length}`);
      if (owners.length === 0) problems.push('no history owner worker (out/main/chunks/ownerWorker-*.mjs) in app.asar');
      const required = [PTY_MODULE, FILE_WATCHER_MODULE, ...SHELL_SCRIPTS, ...mirrors, ...owners, ...SQLITE_FILES, TREE_SITTER_GRAMMAR, TREE_SITTER_RUNTIME];
      problems.push(...missing(layout.asarUnpackedMarks, required, 'the files app.asar marks as unpacked'));
      problems.push(...missing(layout.unpackedFiles, required, 'app.asar.unpacked'));
      const lost = layout.asarUnpackedMarks.filter((file) => !layout.unpackedFiles.includes(file));
      problems.push(...lost.filter((file) => !required.includes(file)).map((file) => `${file} is marked unpacked but not in app.asar.unpacked`));
      return problems;
    },
  },
  {
    name: 'the worker threads (mirror, history owner) are self-contained and are the ones the engine loads',
    check(layout) {
      const problems: string[] = [];
      for (const { what, pattern, isScript } of WORKERS) {
        const workers = Object.keys(layout.mainBundles).filter((file) => pattern.test(file) && isScript(layout.mainBundles[file]!));
        if (workers.length === 0) problems.push(`no ${what} bundle to check`);
        for (const worker of workers) {
          const imports = importedSpecifiers(layout.mainBundles[worker]!).filter((specifier) => !isBuiltin(specifier));
          if (imports.length > 0) problems.push(`${worker} imports ${imports.join(', ')}: it must bundle everything but Node's built-in modules`);
          const name = posix.basename(worker);
          const loaders = Object.entries(layout.mainBundles).filter(([file, text]) => file !== worker && text.includes(name));
          if (loaders.length === 0) problems.push(`no engine bundle refers to ${name}: the engine would not find its ${what}`);
        }
      }
      return problems;
    },
  },
  {
    name: 'the engine bundles only package.json\'s version, not the whole manifest',
    check(layout) {
      const leaks = Object.entries(layout.mainBundles)
        .filter(([, text]) => /["']?devDependencies["']?\s*:/.test(text) || /["']?allowScripts["']?\s*:/.test(text))
        .map(([file]) => file);
      return leaks.map((file) => `${file} contains package.json's devDependencies/allowScripts (import only the version)`);
    },
  },
  {
    name: 'the packed package.json says what the app runs and nothing for development',
    check(layout, expect) {
      const pkg = layout.packageJson;
      if (!pkg) return ['app.asar has no readable package.json'];
      const problems: string[] = [];
      if (pkg.main !== 'out/main/index.js') problems.push(`package.json main is ${JSON.stringify(pkg.main)}, not "out/main/index.js"`);
      else if (!layout.asarFiles.includes('out/main/index.js')) problems.push('package.json main (out/main/index.js) is not in app.asar');
      if (pkg.version !== expect.repoPackage.version) problems.push(`package.json version is ${JSON.stringify(pkg.version)}, not ${expect.repoPackage.version}`);
      if (pkg.type !== 'module') problems.push('package.json type is not "module" (the engine is ES modules)');
      if (pkg.desktopName !== `${expect.executableName}.desktop`) problems.push(`package.json desktopName is ${JSON.stringify(pkg.desktopName)}, not "${expect.executableName}.desktop"`);
      if ('devDependencies' in pkg) problems.push('package.json still lists devDependencies');
      if ('scripts' in pkg) problems.push('package.json still has scripts');
      if (JSON.stringify(pkg.dependencies ?? {}) !== JSON.stringify(expect.repoPackage.dependencies)) problems.push("package.json's dependencies differ from the repository's");
      return problems;
    },
  },
  {
    name: 'the fuses are flipped',
    check(layout, expect) {
      if (!layout.fuses) return [`${expect.executableName} has no fuse wire to read`];
      const want: [keyof typeof FUSE, boolean][] = [
        ['runAsNode', false],
        ['enableCookieEncryption', true],
        ['enableNodeOptionsEnvironmentVariable', false],
        ['enableNodeCliInspectArguments', expect.forTests],
        ['enableEmbeddedAsarIntegrityValidation', true],
        ['onlyLoadAppFromAsar', true],
        ['grantFileProtocolExtraPrivileges', false],
      ];
      const problems: string[] = [];
      for (const [fuse, on] of want) {
        const state = layout.fuses[FUSE[fuse]];
        if (state !== (on ? ENABLE : DISABLE)) {
          const seen = state === ENABLE ? 'on' : state === DISABLE ? 'off' : `state ${state}`;
          problems.push(`fuse ${fuse} is ${seen}, expected ${on ? 'on' : 'off'}${fuse === 'enableNodeCliInspectArguments' ? (expect.forTests ? ' (a test build, npm run dist:e2e)' : ' (only a test build, npm run dist:e2e, turns it on)') : ''}`);
        }
      }
      return problems;
    },
  },
  {
    name: 'the .deb: metadata, /opt install, icons, desktop entry, /usr/bin link and AppArmor profile',
    check(layout, expect) {
      const deb = layout.deb;
      if (!deb) return ['electron-builder never got to the .deb (no fpm arguments were captured)'];
      const exe = expect.executableName;
      const installed = `/opt/${expect.productDir}/${exe}`;
      const problems: string[] = [];
      if (argAfter(deb.args, '--name') !== exe) problems.push(`the .deb is named ${JSON.stringify(argAfter(deb.args, '--name'))}, not ${exe}`);
      if (!/<[^<>@\s]+@[^<>\s]+>/.test(argAfter(deb.args, '--maintainer') ?? '')) problems.push('the .deb has no maintainer with an email address (package.json author)');
      if (!expect.repoPackage.homepage || argAfter(deb.args, '--url') !== expect.repoPackage.homepage) problems.push('the .deb has no homepage URL (package.json homepage)');
      if (!deb.args.some((arg) => arg.endsWith(`/=/opt/${expect.productDir}`))) problems.push(`the app directory is not installed to /opt/${expect.productDir}`);
      for (const size of expect.iconSizes) {
        if (!deb.args.some((arg) => arg.endsWith(`=/usr/share/icons/hicolor/${size}x${size}/apps/${exe}.png`))) problems.push(`the ${size}x${size} icon is not installed`);
      }
      if (!deb.args.some((arg) => arg.endsWith(`=/usr/share/applications/${exe}.desktop`))) problems.push(`no /usr/share/applications/${exe}.desktop`);
      if (desktopValue(deb.desktopEntry, 'Exec') !== `${installed} %U`) problems.push(`the desktop entry runs ${JSON.stringify(desktopValue(deb.desktopEntry, 'Exec'))}, not "${installed} %U"`);
      if (desktopValue(deb.desktopEntry, 'Icon') !== exe) problems.push(`the desktop entry's icon is not ${exe}`);
      if (desktopValue(deb.desktopEntry, 'StartupWMClass') !== exe) problems.push(`the desktop entry's StartupWMClass is not ${exe} (package.json desktopName)`);
      if (!(desktopValue(deb.desktopEntry, 'Categories') ?? '').split(';').includes('TerminalEmulator')) problems.push('the desktop entry is not in the TerminalEmulator category');
      if (!deb.afterInstall.includes(`'/usr/bin/${exe}'`) || !deb.afterInstall.includes(`'${installed}'`)) problems.push(`the after-install script does not link /usr/bin/${exe} to ${installed}`);
      if (!deb.afterInstall.includes('apparmor_parser') || !deb.afterInstall.includes(`/etc/apparmor.d/${exe}`)) problems.push('the after-install script does not install the AppArmor profile');
      if (!deb.afterRemove.includes(`/usr/bin/${exe}`) && !deb.afterRemove.includes(`'${exe}'`)) problems.push(`the after-remove script does not remove /usr/bin/${exe}`);
      const profile = layout.apparmorProfile ?? '';
      if (!/^\s*userns,/m.test(profile) || !profile.includes(`"${installed}"`)) problems.push(`resources/apparmor-profile does not allow user namespaces for ${installed}`);
      return problems;
    },
  },
  {
    name: 'the AppImage desktop entry',
    check(layout, expect) {
      const entry = layout.appImageDesktopEntry;
      if (!entry) return ['electron-builder never got to the AppImage (no desktop entry was captured)'];
      const problems: string[] = [];
      // docs/packaging.md: an AppImage cannot bring an AppArmor profile, so it runs without
      // Chromium's sandbox where user namespaces are restricted; the .deb is the main package.
      if (desktopValue(entry, 'Exec') !== 'AppRun --no-sandbox %U') problems.push(`the AppImage runs ${JSON.stringify(desktopValue(entry, 'Exec'))}, not "AppRun --no-sandbox %U" (see docs/packaging.md)`);
      if (desktopValue(entry, 'Icon') !== expect.executableName) problems.push(`the AppImage's icon is not ${expect.executableName}`);
      return problems;
    },
  },
];

export interface RuleResult {
  name: string;
  problems: string[];
}

/** Every rule's verdict on `layout`; the layout is good when no rule has problems. */
export function checkLayout(layout: PackedLayout, expect: LayoutExpectations, rules: Rule[] = RULES): RuleResult[] {
  return rules.map((rule) => {
    try {
      return { name: rule.name, problems: rule.check(layout, expect) };
    } catch (error) {
      return { name: rule.name, problems: [`the check itself failed: ${String(error)}`] };
    }
  });
}

/** Packages that only devDependencies bring in, from package-lock.json (lockfile v2/v3). */
export function devOnlyPackages(lock: { packages?: Record<string, { dev?: boolean }> }): string[] {
  return Object.entries(lock.packages ?? {})
    .filter(([key, entry]) => entry.dev === true && /^node_modules\/(?:@[^/]+\/)?[^/]+$/.test(key))
    .map(([key]) => key.slice('node_modules/'.length));
}
