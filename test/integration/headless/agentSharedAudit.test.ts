import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAuditVerify } from '../../../src/main/cli/auditCommand';
import { latest } from '../../support/agentConversation';
import { useAgentCli } from '../../support/agentCli';
import { useAgentEngine } from '../../support/agentEngine';
import { testHomeEnv } from '../../support/testHome';

// The desktop app (an engine with its agent) and a `tandem agent` run in the same home write
// the same audit trail at the same time: it stays one chain.

const openApp = useAgentEngine();
const { setup, start } = useAgentCli();
const STEPS = 12;
const echoes = (prefix: string) => Array.from({ length: STEPS }, (_, i) => ({ toolUse: { id: `${prefix}${i}`, name: 'run_command', input: { command: `echo ${prefix}-${i}`, purpose: 'count' } } }));

describe('one audit trail for the app and a headless run', () => {
  it('both write steps at once; `tandem audit verify` finds one intact chain with every line of both', async () => {
    const app = await openApp();
    const headless = await setup();
    // Both may echo without asking (so neither waits for anyone), in the app's home.
    mkdirSync(join(app.home, '.config/tandem'), { recursive: true });
    writeFileSync(join(app.home, '.config/tandem/policy.toml'), '[approval.shell]\nallow_patterns = ["echo *"]\n');
    app.model.script({ parts: echoes('app') }, { parts: [{ text: 'app done' }] });
    headless.model.script({ parts: echoes('cli') }, { parts: [{ text: 'cli done' }] });

    const env = { ...testHomeEnv(app.home), ANTHROPIC_BASE_URL: headless.model.url, ANTHROPIC_API_KEY: 'sk-ant-test', TANDEM_MODEL: 'claude-sonnet-5-5' };
    const agent = start(['-c', 'count'], env, { stdin: 'inherit-closed', cwd: app.home });
    await app.client.request('agent.send', { text: 'count', attachments: [], paneId: app.paneId });

    expect(await agent.exitCode(120_000)).toBe(0);
    await app.client.waitFor(() => latest(app.client)?.items.some((item) => item.role === 'assistant' && item.text === 'app done'), 60_000, 'the app agent to finish');

    const file = join(app.home, '.local/share/tandem/audit.jsonl');
    const verified = await runAuditVerify(file, env);
    expect(verified).toMatchObject({ exitCode: 0 });
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { seq: number; event: string; command?: string });
    expect(lines.map((line) => line.seq)).toEqual(lines.map((_, index) => index + 1));
    expect(lines.filter((line) => line.event === 'tamper')).toEqual([]);
    for (const prefix of ['app', 'cli']) {
      const executed = lines.filter((line) => line.event === 'executed' && line.command?.startsWith(`echo ${prefix}-`));
      expect(executed).toHaveLength(STEPS);
    }
  }, 180_000);
});
