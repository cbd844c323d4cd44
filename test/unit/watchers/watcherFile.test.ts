import { describe, expect, it } from 'vitest';
import { parseWatchers } from '../../../src/main/watchers/watcherFile';
import { durationMs } from '../../../src/shared/duration';

function valid(text: string) {
  const read = parseWatchers(text);
  if (read.kind !== 'valid') throw new Error(`expected valid, got ${JSON.stringify(read)}`);
  return read.watchers;
}

function errorOf(text: string): string {
  const read = parseWatchers(text);
  if (read.kind !== 'invalid') throw new Error(`expected invalid, got ${JSON.stringify(read)}`);
  return read.error;
}

describe('watchers.toml', () => {
  it('reads every trigger with its own keys and the defaults', () => {
    const watchers = valid(`
[[watcher]]
name = "tests"
trigger = "file_change"
path = "src/**/*.ts"
instruction = "# run the tests and report failures"

[[watcher]]
name = "failing"
trigger = "block"
command = "npm test*"
exit = "!=0"
output = "FAIL"
instruction = "explain the first failure"
action = "ask"
debounce = "2s"
max_runs_per_hour = 3

[[watcher]]
name = "morning"
trigger = "schedule"
cron = "0 9 * * 1-5"
timezone = "Europe/Berlin"
instruction = "# summarise overnight alerts"
action = "auto"
cwd = "~/ops"

[[watcher]]
name = "slack"
trigger = "screen_change"
app = "Slack"
pattern = "urgent"
instruction = "# summarise the urgent message"
pane = "focused"

[[watcher]]
name = "deploy"
trigger = "voice"
phrase = "deploy to staging"
instruction = "# deploy to staging"
`);
    expect(watchers.map((w) => w.trigger)).toEqual(['file_change', 'block', 'schedule', 'screen_change', 'voice']);
    const [files, block, schedule, screen, voice] = watchers;
    expect(files).toMatchObject({ path: ['src/**/*.ts'], instruction: 'run the tests and report failures', action: 'notify', debounce: 500, max_runs_per_hour: 6, enabled: true });
    expect(block).toMatchObject({ command: 'npm test*', exit: '!=0', output: 'FAIL', action: 'ask', debounce: 2000, max_runs_per_hour: 3 });
    expect(schedule).toMatchObject({ cron: '0 9 * * 1-5', timezone: 'Europe/Berlin', cwd: '~/ops' });
    expect(screen).toMatchObject({ app: "Slack", pattern: "urgent", interval: 5000, pane: "focused" });
    expect(voice).toMatchObject({ phrase: 'deploy to staging' });
  });

  it('takes a list of globs, and a block watcher defaults to failures', () => {
    const [files, block] = valid(`
[[watcher]]
name = "a"
trigger = "file_change"
path = ["src/**", "test/**"]
instruction = "x"
[[watcher]]
name = "b"
trigger = "block"
instruction = "x"
`);
    expect(files).toMatchObject({ path: ['src/**', 'test/**'] });
    expect(block).toMatchObject({ exit: '!=0' });
  });

  it('reads durations', () => {
    expect(durationMs('500ms')).toBe(500);
    expect(durationMs('2s')).toBe(2000);
    expect(durationMs('1.5m')).toBe(90_000);
    expect(durationMs('2 s')).toBeUndefined();
    expect(durationMs('soon')).toBeUndefined();
  });

  it('names the watcher, key and line of a bad cron', () => {
    const error = errorOf(`# my watchers

[[watcher]]
name = "ok"
trigger = "voice"
phrase = "hello there"
instruction = "x"

[[watcher]]
name = "bad"
trigger = "schedule"
cron = "61 * * * *"
instruction = "x"
`);
    expect(error).toMatch(/^\[\[watcher\]\] #2, cron \(line 12\): .*minute/);
  });

  it('reports an unknown key, a wrong trigger, a bad regex, a bad exit, a bad duration with their lines', () => {
    expect(errorOf(`[[watcher]]\nname = "a"\ntrigger = "block"\ninstruction = "x"\ncolour = "red"\n`)).toMatch(/#1, colour \(line 5\)/);
    expect(errorOf(`[[watcher]]\nname = "a"\ntrigger = "doorbell"\ninstruction = "x"\n`)).toMatch(/#1, trigger \(line 3\)/);
    expect(errorOf(`[[watcher]]\nname = "a"\ntrigger = "block"\noutput = "(unclosed"\ninstruction = "x"\n`)).toMatch(/#1, output \(line 4\): not a valid regular expression/);
    expect(errorOf(`[[watcher]]\nname = "a"\ntrigger = "block"\nexit = "fails"\ninstruction = "x"\n`)).toMatch(/#1, exit \(line 4\): "0", "!=0"/);
    expect(errorOf(`[[watcher]]\nname = "a"\ntrigger = "voice"\nphrase = "hi there"\ndebounce = "soon"\ninstruction = "x"\n`)).toMatch(/#1, debounce \(line 5\): a duration/);
  });

  it('refuses what cannot work: an empty instruction, pane and cwd together, a fast screen poll, no window, duplicate names', () => {
    expect(errorOf(`[[watcher]]\nname = "a"\ntrigger = "voice"\nphrase = "hi there"\ninstruction = "# "\n`)).toMatch(/instruction \(line 5\): say what/);
    expect(errorOf(`[[watcher]]\nname = "a"\ntrigger = "voice"\nphrase = "hi there"\ninstruction = "x"\npane = "any"\ncwd = "/tmp"\n`)).toMatch(/pane or cwd, not both/);
    expect(errorOf(`[[watcher]]\nname = "a"\ntrigger = "screen_change"\ntitle = "x"\ninterval = "1s"\ninstruction = "x"\n`)).toMatch(/interval \(line 5\): at least "5s"/);
    expect(errorOf(`[[watcher]]\nname = "a"\ntrigger = "screen_change"\ninstruction = "x"\n`)).toMatch(/name the window/);
    expect(errorOf(`[[watcher]]\nname = "a"\ntrigger = "voice"\nphrase = "hi there"\ninstruction = "x"\n[[watcher]]\nname = "a"\ntrigger = "voice"\nphrase = "hi again"\ninstruction = "x"\n`)).toMatch(/#2, name \(line 7\): "a" is the name of an earlier watcher/);
  });

  it('a file_change watcher watches a folder, not a pane', () => {
    expect(errorOf(`[[watcher]]\nname = "a"\ntrigger = "file_change"\npath = "*.ts"\npane = "focused"\ninstruction = "x"\n`)).toMatch(/#1, pane \(line 5\): a file_change watcher watches a folder/);
  });

  it('reports a bad timezone on the timezone key', () => {
    expect(errorOf(`[[watcher]]\nname = "a"\ntrigger = "schedule"\ncron = "0 9 * * *"\ntimezone = "Mars/Olympus"\ninstruction = "x"\n`)).toMatch(/#1, timezone \(line 5\)/);
  });

  it('reports TOML syntax errors with line and column', () => {
    expect(errorOf(`[[watcher]]\nname = "a\n`)).toMatch(/line 2/);
    expect(errorOf(`[[watcher]]\nname = = 1\n`)).toMatch(/line 2, column \d+/);
  });

  it('an empty file has no watchers', () => {
    expect(valid('# nothing yet\n')).toEqual([]);
  });
});
