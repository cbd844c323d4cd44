import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runPostExecHooks, runPreExecHooks, type HookAction } from '../../src/main/safety/hooks/hookRunner';

const ACTION: HookAction = {
  tool: 'run_command',
  command: 'ls',
  cwd: tmpdir(),
  purpose: 'list files',
  paneId: 3,
  conversationId: 'conv-1',
  planId: 'plan-9',
  step: 2,
  risk: { level: 'green', reasons: ['read-only'] },
};

// Each test gets a temp root holding the hooks dir; hooks report back into it through $OUT.
let root: string;
let hooksDir: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'tandem-hooks-'));
  hooksDir = join(root, 'hooks');
  mkdirSync(hooksDir);
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function hook(name: string, body: string, mode = 0o755): void {
  const path = join(hooksDir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, mode);
}

const answer = (json: string): string => `cat >/dev/null\necho '${json}'`;

const preExec = (action: Partial<HookAction> = {}, timeoutMs?: number) =>
  runPreExecHooks(hooksDir, { ...ACTION, ...action }, { env: { ...process.env, OUT: root }, timeoutMs });

/** Gone, or a zombie nobody reaped yet (containers without an init that reaps). */
function processIsGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') ?? false;
  } catch {
    return true;
  }
}

describe('runPreExecHooks: answers', () => {
  it('gives no opinion when the hooks dir is missing', async () => {
    expect(await runPreExecHooks(join(root, 'absent'), ACTION)).toEqual({ decision: 'none' });
  });

  it('skips backups, disabled hooks and other events', async () => {
    for (const name of ['pre-exec~', 'pre-exec.sh.bak', 'pre-exec.orig', '.pre-exec.swp', 'pre-exec.swp', 'pre-exec.disabled', 'post-exec', 'pre-execute']) {
      hook(name, answer('{"decision":"deny","reason":"should not run"}'));
    }
    mkdirSync(join(hooksDir, 'pre-exec.d'));
    expect(await preExec()).toEqual({ decision: 'none' });
  });

  it('allows', async () => {
    hook('pre-exec', answer('{"decision":"allow","reason":"fine"}'));
    expect(await preExec()).toEqual({ decision: 'allow', reason: 'fine', hook: 'pre-exec' });
  });

  it('denies with the reason', async () => {
    hook('pre-exec', answer('{"decision":"deny","reason":"no ls on Fridays"}'));
    expect(await preExec()).toEqual({ decision: 'deny', reason: 'no ls on Fridays', hook: 'pre-exec' });
  });

  it('gives a deny without a reason a reason naming the hook', async () => {
    hook('pre-exec', answer('{"decision":"deny"}'));
    expect(await preExec()).toEqual({ decision: 'deny', reason: 'hook pre-exec denied the command without giving a reason', hook: 'pre-exec' });
  });

  it('asks', async () => {
    hook('pre-exec', answer('{"decision":"ask","reason":"check with a human"}'));
    expect(await preExec()).toEqual({ decision: 'ask', reason: 'check with a human', hook: 'pre-exec' });
  });

  it('gives no opinion when the hook exits 0 with blank stdout', async () => {
    hook('pre-exec', 'cat >/dev/null; echo "   "');
    expect(await preExec()).toEqual({ decision: 'none' });
  });

  it('modifies the command, and the next hook sees the modified command', async () => {
    hook('pre-exec.10-rewrite', answer('{"decision":"allow","command":"ls -la"}'));
    hook(
      'pre-exec.20-check',
      `input=$(cat)
case "$input" in
  *'"command":"ls -la"'*) echo '{"decision":"allow"}' ;;
  *) echo '{"decision":"deny","reason":"saw the original command"}' ;;
esac`,
    );
    expect(await preExec()).toEqual({ decision: 'allow', command: 'ls -la', hook: 'pre-exec.10-rewrite' });
  });

  it('reports a modification with no opinion as none plus the command', async () => {
    hook('pre-exec', answer('{"command":"ls -1"}'));
    expect(await preExec()).toEqual({ decision: 'none', command: 'ls -1', hook: 'pre-exec' });
  });

  it('denies a modification to an empty command', async () => {
    hook('pre-exec', answer('{"decision":"allow","command":"  "}'));
    expect(await preExec()).toMatchObject({ decision: 'deny', reason: 'hook pre-exec modified the command to an empty one' });
  });

  it('stops at the first deny', async () => {
    hook('pre-exec.1', answer('{"decision":"deny","reason":"first"}'));
    hook('pre-exec.2', 'touch "$OUT/second-ran"; echo \'{"decision":"allow"}\'');
    expect(await preExec()).toEqual({ decision: 'deny', reason: 'first', hook: 'pre-exec.1' });
    expect(existsSync(join(root, 'second-ran'))).toBe(false);
  });

  it('lets ask beat allow, whatever the order', async () => {
    hook('pre-exec.1', answer('{"decision":"ask","reason":"unsure"}'));
    hook('pre-exec.2', answer('{"decision":"allow","reason":"fine"}'));
    expect(await preExec()).toEqual({ decision: 'ask', reason: 'unsure', hook: 'pre-exec.1' });
  });
});

describe('runPreExecHooks: Claude Code answers', () => {
  it('accepts hookSpecificOutput with updatedInput', async () => {
    hook(
      'pre-exec',
      answer('{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"safe","updatedInput":{"command":"ls -a","description":"list"}}}'),
    );
    expect(await preExec()).toEqual({ decision: 'allow', reason: 'safe', command: 'ls -a', hook: 'pre-exec' });
  });

  it('accepts a hookSpecificOutput deny and ask', async () => {
    hook('pre-exec', answer('{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"blocked by policy"}}'));
    expect(await preExec()).toMatchObject({ decision: 'deny', reason: 'blocked by policy' });
    hook('pre-exec', answer('{"hookSpecificOutput":{"permissionDecision":"ask"},"suppressOutput":true}'));
    expect(await preExec()).toMatchObject({ decision: 'ask' });
  });

  it('accepts the legacy approve and block', async () => {
    hook('pre-exec', answer('{"decision":"approve","reason":"ok"}'));
    expect(await preExec()).toEqual({ decision: 'allow', reason: 'ok', hook: 'pre-exec' });
    hook('pre-exec', answer('{"decision":"block","reason":"nope"}'));
    expect(await preExec()).toEqual({ decision: 'deny', reason: 'nope', hook: 'pre-exec' });
  });

  it('treats continue: false as a deny with the stop reason', async () => {
    hook('pre-exec', answer('{"continue":false,"stopReason":"halt"}'));
    expect(await preExec()).toMatchObject({ decision: 'deny', reason: 'halt' });
  });

  it('treats exit code 2 as a deny with stderr as the reason', async () => {
    hook('pre-exec', 'echo "  rm is not allowed here  " >&2\nexit 2');
    expect(await preExec()).toEqual({ decision: 'deny', reason: 'rm is not allowed here', hook: 'pre-exec' });
  });

  it('gives no opinion for an answer with only informational fields', async () => {
    hook('pre-exec', answer('{"suppressOutput":true,"systemMessage":"logged","hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"x"}}'));
    expect(await preExec()).toEqual({ decision: 'none' });
  });
});

describe('runPreExecHooks: failing closed', () => {
  it('denies when the hook crashes (exit 1), with the stderr tail', async () => {
    hook('pre-exec', 'echo "jq: command not found" >&2\nexit 1');
    // `failed`: the hook broke, it did not judge the command (the engine log records it).
    expect(await preExec()).toEqual({ decision: 'deny', reason: 'hook pre-exec exited with code 1: jq: command not found', hook: 'pre-exec', failed: true });
  });

  it('denies when the hook is killed by a signal', async () => {
    hook('pre-exec', 'kill -SEGV $$');
    expect(await preExec()).toMatchObject({ decision: 'deny', reason: 'hook pre-exec was killed by SIGSEGV', failed: true });
  });

  it('denies on timeout and kills the whole process group', async () => {
    hook('pre-exec', 'sleep 30 &\necho $! > "$OUT/sleep.pid"\nwait');
    const started = Date.now();
    const verdict = await preExec({}, 300);
    expect(Date.now() - started).toBeLessThan(10_000); // far below the 30 s the hook would take
    expect(verdict).toEqual({ decision: 'deny', reason: 'hook pre-exec timed out after 0.3 s', hook: 'pre-exec', failed: true });
    const sleepPid = Number(readFileSync(join(root, 'sleep.pid'), 'utf8'));
    await expect.poll(() => processIsGone(sleepPid), { timeout: 2000 }).toBe(true);
  });

  it('denies garbage output, quoting its start', async () => {
    hook('pre-exec', 'cat >/dev/null; echo "Looks fine to me!"');
    expect(await preExec()).toMatchObject({ decision: 'deny', reason: 'hook pre-exec printed something that is not JSON: "Looks fine to me!"', failed: true });
  });

  it('denies JSON of the wrong shape, an unknown decision and a misspelt key', async () => {
    hook('pre-exec', answer('["allow"]'));
    expect((await preExec()).decision).toBe('deny');
    hook('pre-exec', answer('{"decision":"maybe"}'));
    expect(await preExec()).toMatchObject({ decision: 'deny', reason: expect.stringContaining('decision') });
    hook('pre-exec', answer('{"decison":"allow"}'));
    expect(await preExec()).toMatchObject({ decision: 'deny', reason: expect.stringContaining('decison') });
  });

  it('denies a hook that is not executable, telling the user to chmod +x it, without running any hook', async () => {
    hook('pre-exec.1', 'touch "$OUT/first-ran"');
    hook('pre-exec.2', answer('{"decision":"allow"}'), 0o644);
    const verdict = await preExec();
    expect(verdict).toMatchObject({ decision: 'deny', hook: 'pre-exec.2' });
    expect(verdict.reason).toContain(`chmod +x ${join(hooksDir, 'pre-exec.2')}`);
    expect(existsSync(join(root, 'first-ran'))).toBe(false);
  });

  it('denies a hook that is a broken symlink', async () => {
    symlinkSync(join(root, 'missing'), join(hooksDir, 'pre-exec'));
    expect(await preExec()).toMatchObject({ decision: 'deny', reason: expect.stringContaining('hook pre-exec cannot be read (ENOENT)') });
  });

  it('denies a hook that cannot be started', async () => {
    writeFileSync(join(hooksDir, 'pre-exec'), '#!/nonexistent/interpreter\n', { mode: 0o755 });
    expect(await preExec()).toMatchObject({ decision: 'deny', reason: 'hook pre-exec could not be started: ENOENT (is the interpreter on its #! line installed?)' });
  });

  it('denies a hook that prints more than 64 KB', async () => {
    hook('pre-exec', `cat >/dev/null; printf '{"decision":"allow","reason":"%070000d"}' 0`);
    expect(await preExec()).toMatchObject({ decision: 'deny', reason: 'hook pre-exec printed more than 64 KB on stdout' });
  });

  it('survives a hook that never reads a large input', async () => {
    hook('pre-exec', 'echo \'{"decision":"allow"}\'');
    expect(await preExec({ command: `echo ${'x'.repeat(512 * 1024)}` })).toMatchObject({ decision: 'allow' });
  });
});

describe('runPreExecHooks: what the hook is given', () => {
  it('sends Tandem and Claude Code fields on stdin, the event in the env, and runs in the cwd', async () => {
    hook('pre-exec', 'cat > "$OUT/input.json"\necho "$TANDEM_HOOK_EVENT" > "$OUT/event"\npwd > "$OUT/cwd"');
    await preExec({ cwd: root });
    expect(JSON.parse(readFileSync(join(root, 'input.json'), 'utf8'))).toMatchObject({
      event: 'pre-exec',
      tool: 'run_command',
      command: 'ls',
      cwd: root,
      pane: 3,
      conversation: 'conv-1',
      plan: 'plan-9',
      step: 2,
      risk: { level: 'green', reasons: ['read-only'] },
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls', description: 'list files' },
      session_id: 'conv-1',
    });
    expect(readFileSync(join(root, 'event'), 'utf8').trim()).toBe('pre-exec');
    expect(readFileSync(join(root, 'cwd'), 'utf8').trim()).toBe(root);
  });

  it('lets a hook echo a field back', async () => {
    hook('pre-exec', `input=$(cat)
case "$input" in
  *'"level":"red"'*) echo '{"decision":"deny","reason":"red"}' ;;
  *) echo '{"decision":"allow"}' ;;
esac`);
    expect((await preExec({ risk: { level: 'red', reasons: ['rm -rf'] } })).decision).toBe('deny');
    expect((await preExec()).decision).toBe('allow');
  });

  it('runs in the home dir when the cwd no longer exists', async () => {
    hook('pre-exec', 'pwd > "$OUT/cwd"');
    await preExec({ cwd: join(root, 'deleted') });
    expect(readFileSync(join(root, 'cwd'), 'utf8').trim()).toBe(homedir());
  });
});

describe('runPostExecHooks', () => {
  it('returns nothing when there are no hooks', async () => {
    expect(await runPostExecHooks(join(root, 'absent'), ACTION)).toEqual([]);
  });

  it('sends the exit code and duration, ignores stdout, and reports each hook', async () => {
    hook('post-exec.1', 'cat > "$OUT/post.json"\necho "not json, and that is fine"');
    hook('post-exec.2', 'echo "disk full" >&2\nexit 3');
    hook('post-exec.3', 'true', 0o644);
    const results = await runPostExecHooks(hooksDir, { ...ACTION, exitCode: 7, durationMs: 42 }, { env: { ...process.env, OUT: root } });
    expect(results).toEqual([
      { hook: 'post-exec.1', ok: true },
      { hook: 'post-exec.2', ok: false, message: 'hook post-exec.2 exited with code 3: disk full' },
      { hook: 'post-exec.3', ok: false, message: expect.stringContaining('chmod +x') },
    ]);
    expect(JSON.parse(readFileSync(join(root, 'post.json'), 'utf8'))).toMatchObject({
      event: 'post-exec',
      command: 'ls',
      exit_code: 7,
      duration_ms: 42,
      hook_event_name: 'PostToolUse',
      tool_response: { exit_code: 7 },
    });
  });

  it('reports a timeout without throwing', async () => {
    hook('post-exec', 'sleep 30');
    expect(await runPostExecHooks(hooksDir, ACTION, { timeoutMs: 200 })).toEqual([
      { hook: 'post-exec', ok: false, message: 'hook post-exec timed out after 0.2 s' },
    ]);
  });
});
