import { afterEach } from 'vitest';
import type { Desktop } from '../../src/main/desktop/desktop';
import type { ElectronSurface } from '../../src/main/desktop/electron/electronSurface';
import { useEngineClient } from './engineClient';
import { startScriptedModelServer, type ScriptedModelServer } from './modelServer';

export interface AgentEngineOptions {
  /** Talk to the scripted server as an OpenAI-compatible endpoint (no key needed on loopback). */
  openAiCompatible?: boolean;
  configToml?: string;
  /** Point the Anthropic SDK elsewhere (a dead port, say). */
  baseUrl?: string;
  env?: NodeJS.ProcessEnv;
  /** The pane's shell; bash by default. */
  shell?: string;
  /** The system policy.toml (in the test home). */
  systemPolicyToml?: string;
  /** A stand-in for the Electron app's window and APIs. */
  electron?: ElectronSurface;
  grantsKeptWithoutWindowMs?: number;
  /** How the engine starts `tandem` again (child agents, watcher runs). */
  selfCommand?: readonly string[];
  desktop?: Desktop;
}

/**
 * An engine with a real bash pane and the real SDK pointed at a scripted model server, for
 * the agent's integration tests. Register once per file; every `open()` is torn down after
 * its test.
 */
export function useAgentEngine() {
  const engines = useEngineClient();
  let model: ScriptedModelServer | undefined;
  afterEach(async () => {
    await model?.close();
    model = undefined;
  });

  return async function open(options: AgentEngineOptions = {}) {
    model = await startScriptedModelServer();
    const { engine, client } = await engines.open({
      shell: options.shell ?? '/bin/bash',
      agentRetryBaseMs: 50,
      env: options.openAiCompatible
        ? { ...options.env }
        : { ANTHROPIC_BASE_URL: options.baseUrl ?? model.url, ANTHROPIC_API_KEY: 'sk-ant-test', TANDEM_MODEL: 'claude-sonnet-5-5', ...options.env },
      configToml: options.openAiCompatible ? `[ai]\nbackend = "openai-compatible"\nbase_url = "${model.url}/v1"\nmodel = "llama3"\n` : options.configToml,
      systemPolicyToml: options.systemPolicyToml,
      electron: options.electron,
      grantsKeptWithoutWindowMs: options.grantsKeptWithoutWindowMs,
      selfCommand: options.selfCommand,
      desktop: options.desktop,
    });
    const pane = await client.request('pane.create', { cols: 120, rows: 30 });
    await client.waitForPrompt(pane.paneId);
    return { client, model, paneId: pane.paneId, home: engine.home, engine: engine.engine, server: engine.server };
  };
}
