import { z } from 'zod';

/**
 * policy.toml, in the spirit of section 5.2 of the design seed. Every field is optional: a
 * layer only constrains what it names, so a system file with just `deny_patterns` does not
 * turn every other decision into "ask". Unknown keys are errors, because a misspelt
 * `deny_pattern` silently ignored would be a hole; a file that fails to validate makes the
 * gate ask for everything.
 */
const Mode = z.enum(['ask', 'allow', 'deny']);
const Patterns = z.array(z.string().trim().min(1, 'a pattern cannot be empty')).max(1000);

export const PolicySchema = z.strictObject({
  approval: z
    .strictObject({
      default: Mode.optional(),
      shell: z
        .strictObject({
          mode: Mode.optional(),
          /** GREEN (read-only) commands run without asking. */
          allow_read_only: z.boolean().optional(),
          allow_patterns: Patterns.optional(),
          deny_patterns: Patterns.optional(),
        })
        .optional(),
      filesystem: z
        .strictObject({
          /** Paths the agent's file tools may read (and commands may name); outside them reads are refused. */
          read: Patterns.optional(),
          /** Paths commands may write without asking; a write elsewhere asks. */
          write: Patterns.optional(),
          /** Never read or written, by any tool or command. */
          deny: Patterns.optional(),
        })
        .optional(),
      network: z
        .strictObject({
          mode: Mode.optional(),
          allow_hosts: Patterns.optional(),
        })
        .optional(),
      vision: z
        .strictObject({
          /** Screenshots and the window list (read steps of the agent). */
          screenshot: Mode.optional(),
          ui_tree: Mode.optional(),
          /** Windows never captured or acted on (title, class or instance; `*` `?`); replaces the built-in list of password managers. */
          exclude: Patterns.optional(),
        })
        .optional(),
      ui: z
        .strictObject({
          /** UI actions of the agent (clicks, typing, window changes): ask by default. */
          mode: Mode.optional(),
          /** Applications (window class or instance, e.g. "Firefox"; `*` `?`) the agent may act on without asking. */
          allow_apps: Patterns.optional(),
          /** Windows (by title) the agent never acts on unless you edit the step away: RED. */
          deny_titles: Patterns.optional(),
        })
        .optional(),
      // The `listen` tool (src/main/safety/approval/audioDecision.ts).
      audio: z.strictObject({ microphone: Mode.optional(), system_audio: Mode.optional(), application: Mode.optional(), speech_to_text: Mode.optional() }).optional(),
    })
    .optional(),
});

export type Policy = z.infer<typeof PolicySchema>;
export type PolicyMode = z.infer<typeof Mode>;
