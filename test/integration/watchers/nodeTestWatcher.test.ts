import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useAgentEngine } from '../../support/agentEngine';
import { recordingDesktop, run, runView, SELF, watcherFile } from './watcherRunSupport';

// Issue 29's example watcher: "when the test run fails, explain the first failure". A user runs
// `node --test` in a real bash pane; the block watcher fires on the failing run only, and its
// auto run (a real `tandem agent` child) reads the test file and explains, with the failure's
// output in what the model was told.

const open = useAgentEngine();

const WATCHER = `
[[watcher]]
name = "tests"
trigger = "block"
command = "node --test*"
exit = "!=0"
action = "auto"
debounce = "0ms"
instruction = "# explain the first failure"
`;

describe('a block watcher on `node --test`', () => {
  it('fires on the failing run (not the passing one), and its auto run explains the failure', async () => {
    const { client, model, paneId, home, engine } = await open({ selfCommand: SELF, desktop: recordingDesktop() });
    writeFileSync(join(home, 'passing.test.mjs'), "import { test } from 'node:test';\ntest('ok', () => {});\n");
    writeFileSync(
      join(home, 'failing.test.mjs'),
      "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\ntest('adds', () => assert.equal(1 + 1, 3, 'ADDITION-IS-BROKEN'));\n",
    );
    watcherFile(engine, WATCHER);
    await client.waitFor(() => engine.watchers?.view().watchers.length === 1, 15_000, 'the watcher to load');
    model.script({ parts: [run('c1', 'cat failing.test.mjs')] }, { parts: [{ text: 'The test expects 1 + 1 to be 3: EXPLAINED' }] });

    const passing = await client.runCommand(paneId, 'node --test passing.test.mjs');
    expect(passing.exitCode).toBe(0);
    const failing = await client.runCommand(paneId, 'node --test failing.test.mjs');
    expect(failing.exitCode).not.toBe(0);

    const fired = await client.waitFor(() => client.eventsOf('watcher.fired')[0], 15_000, 'the firing');
    expect(fired).toMatchObject({ name: 'tests', action: 'auto' });
    expect(fired.reason).toContain('node --test failing.test.mjs');
    const done = await runView(client, fired.firingId, (view) => view.state === 'done', 'the run to end');
    expect(done.steps.find((step) => step.command === 'cat failing.test.mjs')).toMatchObject({ status: 'done', exitCode: 0 });
    expect(done.answer).toContain('EXPLAINED');

    // The model was told the instruction and the failing run's output; then it read the file.
    const told = JSON.stringify(model.requests[0]!.body?.messages);
    expect(told).toContain('explain the first failure');
    expect(told).toContain('ADDITION-IS-BROKEN');
    expect(JSON.stringify(model.requests[1]!.body?.messages)).toContain('assert.equal(1 + 1, 3');
    // One firing: the passing run did not fire, and the run's own `cat` block is not the user's.
    expect(client.eventsOf('watcher.fired')).toHaveLength(1);
  });
});
