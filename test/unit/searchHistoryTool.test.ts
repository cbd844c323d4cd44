import { describe, expect, it } from 'vitest';
import { searchHistoryTool } from '../../src/main/agent/tools/searchHistoryTool';
import type { ToolContext } from '../../src/main/agent/tools/agentTool';
import type { SearchQuery, StoredRecord } from '../../src/main/history/historyRecord';

const stored = (fields: Partial<StoredRecord>): StoredRecord => ({
  id: 7,
  command: 'npm ci',
  cwd: '/work/app',
  host: 'box',
  shell: 'bash',
  pane: 's/1',
  session: 's',
  startedAt: Date.now() - 3_600_000,
  endedAt: Date.now() - 3_590_000,
  durationMs: 10_000,
  exitCode: 1,
  author: 'you',
  decision: null,
  rule: null,
  conversation: null,
  gitBranch: null,
  repoRoot: null,
  outputDigest: 'gyp ERR! build error',
  output: null,
  imported: false,
  recordedAt: Date.now(),
  ...fields,
});

/** The tool over a history that answers with `records` and remembers what it was asked. */
function contextWith(records: StoredRecord[]) {
  const queries: SearchQuery[] = [];
  const context = {
    cwd: '/work',
    homeDir: '/home/u',
    refuse: () => undefined,
    pane: () => undefined,
    defaultPaneId: undefined,
    history: {
      search: async (query: SearchQuery) => {
        queries.push(query);
        return { ok: true as const, value: records };
      },
    },
  } satisfies ToolContext;
  return { context, queries };
}

describe('search_history', () => {
  it('turns its input into a store query: digests searched unless in_output is false, since as a time', async () => {
    const { context, queries } = contextWith([]);
    await searchHistoryTool.run({ query: 'gyp', failed: true, cwd: '/work/app', since: '2d', limit: 5 }, context);
    await searchHistoryTool.run({ query: 'gyp', in_output: false }, context);
    expect(queries[0]).toMatchObject({ query: 'gyp', fields: 'all', failed: true, cwd: '/work/app', limit: 5 });
    expect(Date.now() - queries[0]!.since!).toBeGreaterThanOrEqual(2 * 86_400_000);
    expect(queries[1]).toMatchObject({ fields: 'command', limit: 10 });
  });

  it('gives compact records with their digest; the full output only when asked for, and says when it was not kept', async () => {
    const { context } = contextWith([stored({ id: 2, output: 'the whole output' }), stored({ id: 1, author: 'agent-step', decision: 'allowed by you' })]);
    const plain = await searchHistoryTool.run({ query: 'npm' }, context);
    expect(plain.isError).toBe(false);
    expect(plain.content).toMatch(/^2 record\(s\), newest first:\n\n#2 · \S+ \(1h ago\) · exit 1 · 10\.0 s · you · cwd \/work\/app · host box\n\$ npm ci\n<output kind="digest">\ngyp ERR! build error\n<\/output>/);
    expect(plain.content).toContain('agent step, allowed by you');
    expect(plain.content).not.toContain('the whole output');
    const full = await searchHistoryTool.run({ query: 'npm', include_output: true }, context);
    expect(full.content).toContain('<output kind="full">\nthe whole output\n</output>');
    expect(full.content).toContain('(the full output was not kept)');
  });

  it('cuts a long digest and says how much is left out', async () => {
    const { context } = contextWith([stored({ outputDigest: 'x'.repeat(5_000) })]);
    const { content } = await searchHistoryTool.run({}, context);
    expect(content).toContain(`${'x'.repeat(1_500)}\n… [3500 more characters not shown]`);
  });

  it('refuses bad input with the reason, and says when there is no history', async () => {
    const { context, queries } = contextWith([]);
    expect(await searchHistoryTool.run({ limit: 500 }, context)).toMatchObject({ isError: true, content: expect.stringMatching(/^Invalid search_history input: limit: /) });
    expect(await searchHistoryTool.run({ colour: 'red' }, context)).toMatchObject({ isError: true });
    expect(queries).toEqual([]);
    const { history: _none, ...without } = context;
    expect(await searchHistoryTool.run({}, without)).toMatchObject({ isError: true, content: 'There is no block history here.' });
  });
});
