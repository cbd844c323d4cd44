import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Pane } from '../../src/main/panes/pane';
import { makeTempDir, removeDir, SHELLS } from './harness/shellSession';
import { paneLikeTerminal, RendererModel, written } from '../support/floodPipeline';
import { waitUntil } from '../support/waitUntil';

/**
 * Floods in a real pane (bash in a pty, the mirror thread, the engine's delivery) read by a
 * renderer that falls behind: what it is not sent is what it would have scrolled out unseen.
 * Its buffer must equal the mirror's, which parsed the whole stream, and the blocks must
 * still be right.
 */

const SIZE = { cols: 80, rows: 24, scrollback: 1000 };

let pane: Pane | undefined;
let renderer: RendererModel | undefined;
let home: string | undefined;
let pumping = true;

afterEach(async () => {
  pumping = false;
  await pane?.close();
  renderer?.dispose();
  if (home) removeDir(home);
  pane = renderer = home = undefined;
});

/**
 * A renderer slower than the pty: one frame every 20 ms. (It shares the engine's thread here,
 * so without the pauses it would keep up by slowing the engine down.)
 */
async function pumpSlowly(model: RendererModel): Promise<void> {
  pumping = true;
  while (pumping) {
    await model.pump(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function start(): Promise<{ pane: Pane; renderer: RendererModel }> {
  home = makeTempDir('flood-skip');
  pane = new Pane({ id: 1, shellPath: SHELLS.bash, cwd: home, ...SIZE, integration: true, login: false, env: { PATH: process.env.PATH, HOME: home, LANG: 'C.UTF-8', PS1: '$ ' } });
  const opened = pane;
  renderer = new RendererModel(SIZE, (bytes) => opened.acknowledge(bytes), () => undefined);
  pane.attach(renderer.listener);
  pane.start();
  void pumpSlowly(renderer);
  await waitUntil(() => opened.state === 'PROMPT', 'the first prompt');
  return { pane, renderer };
}

/** Runs `command` to its end and until the renderer has parsed everything sent. */
async function run(target: Pane, model: RendererModel, command: string) {
  const before = target.blocks().length;
  target.write(`${command}\r`);
  await waitUntil(() => target.blocks().length > before && target.blocks().at(-1)!.endedAt !== undefined && target.state === 'PROMPT', command, 120_000);
  await waitUntil(() => model.waiting === 0 && target.info().streamOffset === model.streamOffset, 'the renderer caught up', 60_000);
  return target.blocks().at(-1)!;
}

/** The renderer's screen and scrollback against the mirror's (serialized the same way). */
async function expectSameAsMirror(target: Pane, model: RendererModel) {
  const mirror = await target.snapshot(Number.MAX_SAFE_INTEGER);
  const { terminal, serialize } = paneLikeTerminal(SIZE.cols, SIZE.rows, SIZE.scrollback);
  await written(terminal, mirror);
  expect(model.terminal.buffer.active.length).toBe(terminal.buffer.active.length);
  const rendererText = Array.from({ length: model.terminal.buffer.active.length }, (_, row) => model.terminal.buffer.active.getLine(row)!.translateToString(true));
  const mirrorText = Array.from({ length: terminal.buffer.active.length }, (_, row) => terminal.buffer.active.getLine(row)!.translateToString(true));
  expect(rendererText).toEqual(mirrorText);
  const rendererSerialized = new (await import('@xterm/addon-serialize')).default.SerializeAddon();
  model.terminal.loadAddon(rendererSerialized as never);
  expect(rendererSerialized.serialize({ scrollback: Number.MAX_SAFE_INTEGER, excludeAltBuffer: true, excludeModes: true })).toBe(serialize().replace(/\x1b\[\?[0-9;]*[hl]/g, ''));
  terminal.dispose();
}

function colouredLog(path: string, lines: number): void {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    const level = ['\x1b[32mINFO\x1b[0m', '\x1b[33mWARN\x1b[0m', '\x1b[1;31mERROR\x1b[0m'][i % 3];
    out.push(`2026-11-29T03:${String(i % 60).padStart(2, '0')} ${level} \x1b[38;5;${16 + (i % 200)}mworker-${i % 7}\x1b[0m request ${i} handled ${'données 数据 ✓ '.repeat(i % 9)}`);
  }
  writeFileSync(path, out.join('\n') + '\n');
}

function compilerLog(path: string, lines: number): void {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    out.push(`\x1b[1msrc/module${i % 40}.c:${i}:5: \x1b[1;35mwarning: \x1b[0m\x1b[1munused variable 'x${i}'\x1b[0m [-Wunused-variable]`);
    out.push(`   ${i} |     int x${i} = ${i};`);
    out.push(`      |         \x1b[1;32m^~~\x1b[0m`);
  }
  writeFileSync(path, out.join('\n') + '\n');
}

describe.skipIf(!SHELLS.bash)('a flood the renderer falls behind on', () => {
  it('skips what would scroll out unseen: cat of a coloured log, a compiler log, yes, find', async () => {
    const { pane: target, renderer: model } = await start();
    colouredLog(join(home!, 'app.log'), 60_000);
    compilerLog(join(home!, 'build.log'), 20_000);

    const cat = await run(target, model, 'cat app.log');
    expect(cat.exitCode).toBe(0);
    expect(model.skipped).toBeGreaterThan(1_000_000);
    await expectSameAsMirror(target, model);
    // The model's view of the block is the mirror's: the totals are those of the whole output.
    expect((await target.outputOf(cat.id))?.printed?.lines).toBe(60_000);

    const skippedBefore = model.skipped;
    await run(target, model, 'cat build.log');
    await run(target, model, 'yes "y $(printf %.0s- {1..30})" | head -n 200000');
    await run(target, model, 'find /usr -maxdepth 4 2>/dev/null | head -n 50000');
    expect(model.skipped).toBeGreaterThan(skippedBefore);
    await expectSameAsMirror(target, model);
    expect(target.blocks().map((block) => block.exitCode)).toEqual([0, 0, 0, 0]);
  }, 240_000);

  it('skips lines whose colours never reset (bold off, default colour), and the flood still ends on the screen', async () => {
    const { pane: target, renderer: model } = await start();
    // Each line leaves bold on and off again without a full reset: the attributes at a cut are
    // set again by the SGR sequences since the run began (each is a plain setting).
    writeFileSync(join(home!, 'bold.log'), Array.from({ length: 150_000 }, (_, i) => `\x1b[32mINFO\x1b[39m line ${i} ${'données '.repeat(i % 13)}\x1b[1mbold\x1b[22m end`).join('\n') + '\n');
    await run(target, model, 'cat bold.log; echo BENCH""-DONE');
    expect(model.skipped).toBeGreaterThan(1_000_000);
    await expectSameAsMirror(target, model);
  }, 120_000);

  it('comes back from Ctrl+C under yes with the prompt and the same screen as the mirror', async () => {
    const { pane: target, renderer: model } = await start();
    const before = target.blocks().length;
    target.write('yes\r');
    await waitUntil(() => model.skipped > 1_000_000, 'yes flooding, some of it skipped', 60_000);
    target.write('\x03');
    await waitUntil(() => target.blocks().length > before && target.blocks().at(-1)!.endedAt !== undefined && target.state === 'PROMPT', 'the prompt after Ctrl+C');
    await waitUntil(() => model.waiting === 0 && target.info().streamOffset === model.streamOffset, 'the renderer caught up');
    expect(target.blocks().at(-1)!.exitCode).toBe(130);
    const buffer = model.terminal.buffer.active;
    expect(buffer.getLine(buffer.baseY + buffer.cursorY)!.translateToString(true)).toMatch(/[$#] $/);
    await expectSameAsMirror(target, model);
  }, 120_000);
});
