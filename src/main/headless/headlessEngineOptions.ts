import { resolve } from 'node:path';
import type { ConversationView } from '../../shared/agent';
import type { Settings } from '../../shared/settings';
import type { PlanRules } from '../agent/plan/plan';
import type { EngineOptions, HeadlessEngineOptions } from '../engine/engine';
import { tandemPaths } from '../settings/paths';
import type { AgentIo } from './agentIo';
import type { AgentOptions } from './agentOptions';

/** Who refuses what in a headless run's plans (PlanRules.headless). */
export type HeadlessPlanRules = NonNullable<PlanRules['headless']>;

/**
 * The engine of a headless run (`tandem agent`, `tandem agent --acp`): the user's paths (or
 * `--config`), `--policy` as a narrowing run policy, the run's plan rules with its step limit
 * (`--max-steps`, counted over the conversation `view` shows) and its flags over config.toml.
 */
export function headlessEngineOptions(
  options: AgentOptions,
  io: Pick<AgentIo, 'env' | 'version' | 'selfCommand'>,
  rules: () => HeadlessPlanRules,
  view: () => ConversationView,
  run: Pick<HeadlessEngineOptions, 'childAgents' | 'spanStream' | 'requestRefusal'> = {},
): EngineOptions {
  return {
    version: io.version,
    env: io.env,
    selfCommand: io.selfCommand,
    paths: { ...tandemPaths(io.env), ...(options.config ? { configFile: resolve(options.config) } : {}) },
    headless: {
      runPolicyFiles: options.policies.map((policy) => resolve(policy)),
      planRules: () => planRules(options, rules(), view),
      adjustSettings: (settings) => adjustSettings(options, settings),
      childAgents: run.childAgents,
      spanStream: run.spanStream,
      requestRefusal: run.requestRefusal,
    },
  };
}

function planRules(options: AgentOptions, headless: HeadlessPlanRules, view: () => ConversationView): PlanRules {
  const max = options.maxSteps;
  if (!max) return { headless };
  const used = view().items.reduce((count, item) => count + (item.role === 'plan' ? item.plan.steps.filter((step) => !step.beyondLimit).length : 0), 0);
  return { headless, stepLimit: { left: Math.max(0, max - used), total: max } };
}

function adjustSettings(options: AgentOptions, settings: Settings): Settings {
  const { maxSteps, maxTokens } = options;
  if (!maxSteps && !maxTokens) return settings;
  return {
    ...settings,
    ai: { ...settings.ai, ...(maxTokens ? { session_token_budget: maxTokens } : {}) },
    companion: { ...settings.companion, ...(maxSteps ? { auto_max_steps: maxSteps } : {}), ...(maxTokens ? { auto_token_budget: maxTokens } : {}) },
  };
}
