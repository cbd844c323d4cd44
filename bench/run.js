#!/usr/bin/env node
// `npm run bench` — Tandem's benchmarks. Every measurement is printed as a ratio against a
// reference or limit measured in the same run on the same machine. A MISS is reported, not
// fatal; the exit code is non-zero only when a measurement could not be taken at all.
//
//   node bench/run.js                       everything (~3-5 min)
//   node bench/run.js throughput            one suite: throughput | latency | interrupt | memory | agent | safety | companion | summarizer | desktop | cli | agentcli | tracing | history | ssh | watchers
//   node bench/run.js latency memory        several
//   BENCH_FILE_MB=10 node bench/run.js throughput    a smaller log file while debugging
//   BENCH_SCRUB_MB=2 node bench/run.js safety        less text to scrub
//   BENCH_DEBUG=1 ...                        stack traces and page errors on stderr
import { cpus, loadavg } from 'node:os';
import { Report } from './lib/report.js';

const SUITES = {
  throughput: () => import('./suites/throughput.js').then((m) => m.throughput),
  latency: () => import('./suites/latency.js').then((m) => m.latency),
  interrupt: () => import('./suites/interrupt.js').then((m) => m.interrupt),
  memory: () => import('./suites/memory.js').then((m) => m.memory),
  agent: () => import('./suites/agent.js').then((m) => m.agent),
  safety: () => import('./suites/safety.js').then((m) => m.safety),
  companion: () => import('./suites/companion.js').then((m) => m.companion),
  summarizer: () => import('./suites/summarizer.js').then((m) => m.summarizer),
  desktop: () => import('./suites/desktop.js').then((m) => m.desktop),
  cli: () => import('./suites/cli.js').then((m) => m.cli),
  agentcli: () => import('./suites/agentcli.js').then((m) => m.agentcli),
  tracing: () => import('./suites/tracing.js').then((m) => m.tracing),
  history: () => import('./suites/history.js').then((m) => m.history),
  ssh: () => import('./suites/ssh.js').then((m) => m.ssh),
  watchers: () => import('./suites/watchers.js').then((m) => m.watchers),
};

const requested = process.argv.slice(2);
const unknown = requested.filter((name) => !(name in SUITES));
if (unknown.length > 0) {
  console.error(`bench: unknown suite ${unknown.join(', ')}; choose from ${Object.keys(SUITES).join(', ')}`);
  process.exit(2);
}
const names = requested.length > 0 ? requested : Object.keys(SUITES);

const report = new Report();
const started = performance.now();
console.log(
  `Tandem bench: ${names.join(', ')} on ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), ` +
    `load ${loadavg().map((l) => l.toFixed(2)).join(' ')}, node ${process.version}`,
);
for (const name of names) {
  const t = performance.now();
  process.stdout.write(`… ${name}\n`);
  try {
    const suite = await SUITES[name]();
    await suite(report);
  } catch (error) {
    report.failed(name, error);
    if (process.env.BENCH_DEBUG) console.error(error);
  }
  process.stdout.write(`  ${name} took ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
}
report.note(`load average after the run: ${loadavg().map((l) => l.toFixed(2)).join(' ')} (other work on this machine skews everything)`);
report.print();
console.log(`\nbench finished in ${((performance.now() - started) / 1000).toFixed(0)} s`);
if (report.hasErrors) {
  console.error('bench: some measurements could not be taken (ERROR rows above).');
  process.exitCode = 1;
}
