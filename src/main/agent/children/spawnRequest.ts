import { z } from 'zod';

/** The input of a spawn_agent call: a sub-task for a child agent, and what narrows it. */
export const SpawnRequestSchema = z.object({
  instruction: z.string().trim().min(1).max(20_000),
  purpose: z.string().max(2_000).default(''),
  /** Where the child's shell starts (relative to the pane's cwd). */
  cwd: z.string().trim().min(1).max(4_096).optional(),
  /** A policy TOML snippet, or the path of a policy file: it can only narrow this agent's. */
  policy: z.string().trim().min(1).max(20_000).optional(),
  model: z.string().trim().min(1).max(200).optional(),
  max_steps: z.number().int().positive().max(1_000).optional(),
  budget_usd: z.number().positive().max(10_000).optional(),
});

export type SpawnRequest = z.infer<typeof SpawnRequestSchema>;
