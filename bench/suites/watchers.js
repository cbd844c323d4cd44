// Watchers and hearing (issue 29 "Bench"; docs/watchers.md and docs/voice.md "Speed").
//
// Five file_change watchers on a generated 50,000-file git project (lib/projectTree.js), run
// the way a server runs them: `tandem agent --watchers DIR --json`, its `watcher-fired` lines
// read here. The reference is @parcel/watcher alone (lib/rawFileWatcher.js) in its own
// process, subscribed to the same folders with the same ignore option, its event lines read
// the same way; a bare Node process loading it, and `tandem agent --watchers` with no
// watchers, are the "without" of the memory row.
//   - ready: the process started → every watcher has fired on a probe save (info)
//   - idle CPU of the watching process over 10 s with nothing changing; limit 1% of a core
//   - RSS the 5 watchers add (with − without) vs what the library's own subscriptions add
//   - save → firing vs save → the library's event, p50 and p95 of 20 saves spread over the
//     watchers, with the shortest debounce ("0ms"; a real watcher waits its debounce on top)
//   - saves in build/ (gitignored) and node_modules/ fire nothing (a note)
// Then push-to-talk in Chromium (pushToTalk.js).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LineProcess } from '../lib/lineProcess.js';
import { cpuMeter, descendantsOf, rssBytes } from '../lib/proc.js';
import { DEEP, TREE, makeProjectTree } from '../lib/projectTree.js';
import { measure } from '../lib/report.js';
import { ROOT } from '../lib/root.js';
import { MB, sleep, summary } from '../lib/stats.js';
import { makeHome, requireBuild } from '../lib/tandem.js';
import { pushToTalk } from './pushToTalk.js';

const SAVES = Number(process.env.BENCH_WATCHERS_SAVES ?? 20);
const IDLE_SECONDS = 10;
const IGNORED_ROUNDS = 5;
/** Issue 29's brief: what watching may cost on top of the library, and at rest. */
const FIRING_LIMIT_MS = 50;
const IDLE_CPU_LIMIT = 0.01;
const MEMORY_LIMIT_MB = 16;
/** How often a probe is saved while waiting for the watchers to be ready. */
const PROBE_EVERY_MS = 20;
const READY_TIMEOUT_MS = 120_000;
const fmt = (s) => `p50 ${s.p50.toFixed(1)} / p95 ${s.p95.toFixed(1)} / max ${s.max.toFixed(1)} ms (n=${s.n})`;

/** The five watchers: a name, the glob, and which files of the tree it hears. */
const WATCHERS = [
  { name: 'sources', glob: 'src/**/*.ts', file: TREE.source, probe: (n) => `${DEEP.source}/probe-${n}.ts` },
  { name: 'tests', glob: 'test/**/*.test.ts', file: TREE.test, probe: (n) => `${DEEP.test}/probe-${n}.test.ts` },
  { name: 'docs', glob: 'docs/**/*.md', file: TREE.doc, probe: (n) => `${DEEP.doc}/probe-${n}.md` },
  { name: 'config', glob: '**/*.json', file: TREE.config, probe: (n) => `${DEEP.source}/probe-${n}.json` },
  { name: 'styles', glob: 'src/**/*.css', file: TREE.style, probe: (n) => `${DEEP.source}/probe-${n}.css` },
];
/** The folders Tandem subscribes for those globs (each glob's fixed part), in the same order. */
const SUBSCRIBED = ['src', 'test', 'docs', '.', 'src'];

export async function watchers(report) {
  requireBuild('the watchers rows');
  await measure(report, 'watchers: 5 file_change watchers on 50,000 files', () => fileWatchers(report));
  await measure(report, 'push-to-talk: release → transcript shown', () => pushToTalk(report));
}

async function fileWatchers(report) {
  const tree = makeProjectTree();
  const home = makeHome();
  const processes = [];
  const start = (args, env) => {
    const started = new LineProcess(args, { cwd: tree.root, env, stdin: 'pipe' });
    processes.push(started);
    return started;
  };
  try {
    writeFileSync(join(home.home, '.config/tandem/watchers.toml'), watchersToml(tree.root));
    const tandemArgs = [join(ROOT, 'bin/tandem.js'), 'agent', '--watchers', tree.root, '--json'];
    const rawArgs = [join(ROOT, 'bench/lib/rawFileWatcher.js')];

    // One at a time, so neither walks the tree while the other does.
    const raw = start([...rawArgs, ...SUBSCRIBED.map((folder) => join(tree.root, folder))], home.env);
    const rawReady = await raw.waitForEvent((event) => event.type === 'ready', 'the raw watcher ready', { ms: READY_TIMEOUT_MS });
    const tandem = start(tandemArgs, home.env);
    const ready = await watchersReady(tandem, tree.root);
    report.info(
      'watchers: ready, 5 file_change watchers on 50,000 files',
      ready.ms,
      'ms',
      `\`tandem agent --watchers\` started → each watcher has fired on a probe file (saved every ${PROBE_EVERY_MS} ms until it fires, so this includes one save → firing); its \`watchers\` line came at ${ready.listedMs.toFixed(0)} ms. ` +
        `Raw @parcel/watcher in its own process: started → its 5 subscriptions in place ${(rawReady.at - raw.startedAt).toFixed(0)} ms (the subscribe calls ${rawReady.event.ms.toFixed(0)} ms). ` +
        `The project: ${tree.files} files in ${tree.folders} folders (a git work tree, sources committed; build/ and node_modules/ ignored), written in ${(tree.writtenMs / 1000).toFixed(1)} s, committed in ${(tree.gitMs / 1000).toFixed(1)} s`,
    );

    // The "without" processes: no watchers (an empty config folder), and the library with no subscriptions.
    const bare = start(tandemArgs, { ...home.env, XDG_CONFIG_HOME: join(home.home, '.config-without-watchers') });
    await bare.waitForEvent((event) => event.type === 'watchers' && event.watchers.length === 0, 'the watchers line of a run without watchers');
    const rawBare = start(rawArgs, home.env);
    await rawBare.waitForEvent((event) => event.type === 'ready', 'the bare raw watcher ready');

    const pidsOf = (running) => () => [running.child.pid, ...descendantsOf(running.child.pid)];
    const meter = cpuMeter({ tandem: pidsOf(tandem), raw: pidsOf(raw), bare: pidsOf(bare) });
    meter.start();
    // The measurement window itself: nothing is saved while it lasts.
    await sleep(IDLE_SECONDS * 1000);
    const idle = meter.stop();
    const firedWhileIdle = tandem.lines.filter((line) => line.at > ready.quietAt && line.event?.type === 'watcher-fired').length;
    if (firedWhileIdle > 0) throw new Error(`${firedWhileIdle} watcher(s) fired while nothing was saved`);
    const pct = (share) => `${(share * 100).toFixed(3)}%`;
    report.absolute({
      name: 'watchers: idle CPU of the watching process, 10 s',
      value: idle.tandem * 100,
      unit: '% of a core',
      limit: IDLE_CPU_LIMIT * 100,
      orEqual: true,
      note: `over ${idle.seconds.toFixed(1)} s with no changes: with the 5 watchers ${pct(idle.tandem)}, \`tandem agent --watchers\` without watchers ${pct(idle.bare)}, raw @parcel/watcher with the same subscriptions ${pct(idle.raw)} (/proc utime+stime, 10 ms ticks)`,
    });

    const rss = (running) => rssBytes(running.child.pid) / MB;
    const memory = { with: rss(tandem), without: rss(bare), rawWith: rss(raw), rawWithout: rss(rawBare) };
    report.delta({
      name: 'watchers: memory the 5 watchers add',
      value: memory.with - memory.without,
      unit: 'MB',
      ref: memory.rawWith - memory.rawWithout,
      refName: "the library's own",
      maxDelta: MEMORY_LIMIT_MB,
      note: `RSS after the idle window: \`tandem agent --watchers\` with the 5 watchers ${memory.with.toFixed(1)} MB, without ${memory.without.toFixed(1)} MB; raw @parcel/watcher with the same 5 subscriptions ${memory.rawWith.toFixed(1)} MB, bare ${memory.rawWithout.toFixed(1)} MB. RSS holds garbage not yet collected, so a few MB either way are noise`,
    });

    const saves = await saveToFiring(tandem, raw, tree.root);
    const fired = summary(saves.map((save) => save.fired));
    const library = summary(saves.map((save) => save.raw));
    const over = summary(saves.map((save) => save.fired - save.raw));
    const note = `Tandem (\`watcher-fired\` line read) ${fmt(fired)}; raw @parcel/watcher (event line read) ${fmt(library)}; per save, Tandem minus raw ${fmt(over)}. Debounce "0ms", the shortest (the default "500ms" adds its wait); ${SAVES} saves of existing files, one at a time, each watcher in turn`;
    report.delta({ name: 'watchers: save → firing, p50', value: fired.p50, unit: 'ms', ref: library.p50, refName: 'raw @parcel/watcher p50', maxDelta: FIRING_LIMIT_MS, note });
    report.delta({ name: 'watchers: save → firing, p95', value: fired.p95, unit: 'ms', ref: library.p95, refName: 'raw @parcel/watcher p95', maxDelta: FIRING_LIMIT_MS });

    const ignored = await ignoredSaves(tandem, raw, tree.root);
    report.note(
      `watchers: saves in ignored folders: ${ignored.fired} of ${ignored.saves} fired (build/*.json, ignored by .gitignore and matched by the "config" watcher's **/*.json, which the library reported; node_modules/*/package.json, never watched); each followed by a tracked meta.json save that did fire${ignored.fired > 0 ? ' — MISS: they must not fire' : ''}`,
    );
  } finally {
    for (const running of processes) running.child.kill('SIGTERM');
    await Promise.all(processes.map((running) => running.exitCode(10_000).catch(() => undefined)));
    home.cleanup();
    tree.cleanup();
  }
}

function watchersToml(root) {
  return WATCHERS.map(
    ({ name, glob }) => `[[watcher]]\nname = "${name}"\ntrigger = "file_change"\npath = "${glob}"\ncwd = "${root}"\ndebounce = "0ms"\nmax_runs_per_hour = 60\ninstruction = "# bench"\n`,
  ).join('\n');
}

const firedFor = (relative) => (event) => event.type === 'watcher-fired' && event.reason.split(/[:,]\s*|\s+changed$/).includes(relative);
const reportedBy = (absolute) => (event) => event.type === 'events' && event.paths.includes(absolute);

/**
 * Probe files are saved (a new one each time, every PROBE_EVERY_MS) into each watcher's folders
 * until each watcher has fired: a save before its subscription is in place is never reported,
 * and the events of one made while other folders are still being walked wait for the walk.
 * Then one more save each, waited for, so no probe's firing is still on its way.
 */
async function watchersReady(tandem, root) {
  const listed = await tandem.waitForEvent((event) => event.type === 'watchers', 'the watchers line', { ms: READY_TIMEOUT_MS });
  if (listed.event.watchers.length !== WATCHERS.length) throw new Error(`the watchers line lists ${listed.event.watchers.length} watchers, not ${WATCHERS.length}: ${tandem.stderr.slice(-300)}`);
  const firstFiring = (watcher) => tandem.lines.find((line) => line.event?.type === 'watcher-fired' && line.event.watcher === watcher.name);
  const deadline = performance.now() + READY_TIMEOUT_MS;
  for (let n = 0; WATCHERS.some((watcher) => !firstFiring(watcher)); n++) {
    if (performance.now() > deadline) throw new Error(`not every watcher fired on a probe within ${READY_TIMEOUT_MS / 1000} s: ${WATCHERS.filter((watcher) => !firstFiring(watcher)).map((watcher) => watcher.name).join(', ')}`);
    for (const watcher of WATCHERS) if (!firstFiring(watcher)) writeFileSync(join(root, watcher.probe(n)), `probe ${n}\n`);
    await sleep(PROBE_EVERY_MS);
  }
  const readyAt = Math.max(...WATCHERS.map((watcher) => firstFiring(watcher).at));
  let quietAt = 0;
  for (const watcher of WATCHERS) {
    const last = watcher.probe('last');
    writeFileSync(join(root, last), 'the last probe\n');
    quietAt = Math.max(quietAt, (await tandem.waitForEvent(firedFor(last), `the firing for ${last}`)).at);
  }
  return { ms: readyAt - tandem.startedAt, listedMs: listed.at - tandem.startedAt, quietAt };
}

/** SAVES saves of existing files, a watcher's each in turn; each time from the write to the firing and to the library's event. */
async function saveToFiring(tandem, raw, root) {
  const saves = [];
  for (let i = 0; i < SAVES; i++) {
    const watcher = WATCHERS[i % WATCHERS.length];
    const relative = watcher.file(Math.floor(i / WATCHERS.length));
    const path = join(root, relative);
    const t0 = performance.now();
    writeFileSync(path, `// saved by the bench, round ${i}\n`);
    const [fired, seen] = await Promise.all([tandem.waitForEvent(firedFor(relative), `the firing of ${watcher.name} for ${relative}`), raw.waitForEvent(reportedBy(path), `the library's event for ${relative}`)]);
    if (fired.event.watcher !== watcher.name) throw new Error(`${relative} fired ${fired.event.watcher}, not ${watcher.name}`);
    saves.push({ fired: fired.at - t0, raw: seen.at - t0 });
  }
  return saves;
}

/**
 * Saves Tandem must not fire for, each pair followed by a tracked file the "config" watcher
 * hears; the build/ save is waited for at the library first, so it was there to be ignored.
 */
async function ignoredSaves(tandem, raw, root) {
  const ignored = [];
  for (let n = 0; n < IGNORED_ROUNDS; n++) {
    const built = TREE.built(n);
    const dependency = TREE.dependency(n);
    writeFileSync(join(root, built), `{ "saved": ${n} }\n`);
    writeFileSync(join(root, dependency), `{ "name": "saved-${n}" }\n`);
    ignored.push(built, dependency);
    await raw.waitForEvent(reportedBy(join(root, built)), `the library's event for ${built}`);
    const tracked = TREE.config(10 + n);
    writeFileSync(join(root, tracked), `{ "saved": ${n} }\n`);
    await tandem.waitForEvent(firedFor(tracked), `the firing for ${tracked}`);
  }
  const fired = ignored.filter((path) => tandem.lines.some((line) => line.event?.type === 'watcher-fired' && line.event.reason.includes(path)));
  return { saves: ignored.length, fired: fired.length };
}
