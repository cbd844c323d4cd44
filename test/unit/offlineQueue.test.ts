import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Conversation } from '../../src/main/agent/conversation/conversation';
import { FIRST_CHECK_MS, MAX_CHECK_MS, OfflineQueue } from '../../src/main/agent/offline/offlineQueue';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tandem-offline-'));
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  rmSync(dir, { recursive: true, force: true });
});

function queueWith(file: string, runs: boolean[] = [], errors: Error[] = []) {
  const conversation = new Conversation({ surroundings: () => ({}) as never, emit: () => undefined });
  const queue = new OfflineQueue({ file, conversation, busy: () => false, run: (resend) => runs.push(resend), onError: (error) => errors.push(error) });
  return { conversation, queue };
}

describe('the offline queue', () => {
  it('checks on a timer that doubles from 15 s up to 5 minutes', () => {
    const runs: boolean[] = [];
    const { conversation, queue } = queueWith(join(dir, 'queued.json'), runs);
    conversation.appendToHistory('user', [{ type: 'text', text: 'deploy' }]);
    queue.add('deploy');
    const waits: number[] = [];
    for (let check = 0; check < 7; check++) {
      waits.push(queue.view()!.nextCheckAt! - Date.now());
      vi.advanceTimersByTime(waits.at(-1)!);
      queue.checkFailed();
    }
    expect(waits).toEqual([FIRST_CHECK_MS, 30_000, 60_000, 120_000, 240_000, MAX_CHECK_MS, MAX_CHECK_MS]);
    // Each timer check resent the unanswered history.
    expect(runs).toEqual([true, true, true, true, true, true, true]);
    expect(queue.view()?.checks).toBe(7);
    queue.delivered();
    expect(queue.view()).toBeUndefined();
    vi.advanceTimersByTime(MAX_CHECK_MS * 2);
    expect(runs).toHaveLength(7);
  });

  it('keeps the queue in its file and brings it back into a new conversation, queued to be sent', () => {
    const file = join(dir, 'queued.json');
    queueWith(file).queue.add('left over');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ version: 1, instructions: [{ text: 'left over' }] });
    const runs: boolean[] = [];
    const { conversation, queue } = queueWith(file, runs);
    queue.restore();
    expect(conversation.items).toMatchObject([{ role: 'user', text: 'left over' }]);
    expect(conversation.hasQueued).toBe(true);
    queue.act('retry');
    expect(runs).toEqual([false]);
    queue.act('discard');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ version: 1, instructions: [] });
  });

  it('a file it cannot read is reported and left alone; Queue it needs a card that offers it', () => {
    const file = join(dir, 'queued.json');
    writeFileSync(file, '{"version": 9}');
    const errors: Error[] = [];
    const { queue } = queueWith(file, [], errors);
    queue.restore();
    expect(errors[0]?.message).toContain('could not be read (it has an unknown format); they are left there');
    expect(readFileSync(file, 'utf8')).toBe('{"version": 9}');
    expect(queue.active).toBe(false);
    expect(() => queue.act('queue')).toThrow('There is no instruction waiting for a backend to queue.');
  });
});
