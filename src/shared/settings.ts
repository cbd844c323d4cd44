import { z } from 'zod';

/** config.toml, validated. Every field has a default so an empty file is valid. */
export const SettingsSchema = z
  .object({
    shell: z
      .object({
        /** Path of the shell to start; empty means $SHELL, then /bin/bash. */
        path: z.string().default(''),
        args: z.array(z.string()).default([]),
        /** Inject OSC 133 shell integration into bash, zsh and fish. */
        integration: z.boolean().default(true),
        login: z.boolean().default(true),
      })
      .strict()
      .prefault({}),
    terminal: z
      .object({
        fontFamily: z.string().default('"DejaVu Sans Mono", "Cascadia Code", Menlo, monospace'),
        fontSize: z.number().int().min(6).max(72).default(14),
        scrollback: z.number().int().min(0).max(1_000_000).default(10_000),
        theme: z.enum(['system', 'dark', 'light']).default('system'),
        cursorBlink: z.boolean().default(true),
        /** GPU rendering where available; falls back to the DOM renderer on context loss. */
        webgl: z.boolean().default(true),
        /** Copy the selection to the clipboard as soon as it is made. */
        copyOnSelect: z.boolean().default(false),
      })
      .strict()
      .prefault({}),
    session: z
      .object({
        /** Bring back tabs, splits, cwd and scrollback after a restart. */
        restore: z.boolean().default(true),
      })
      .strict()
      .prefault({}),
  })
  .strict();

export type Settings = z.infer<typeof SettingsSchema>;

export const DEFAULT_SETTINGS: Settings = SettingsSchema.parse({});

/** A partial update from the settings UI, one section at a time. */
export const SettingsPatchSchema = z
  .object({
    shell: SettingsSchema.shape.shell.unwrap().partial().optional(),
    terminal: SettingsSchema.shape.terminal.unwrap().partial().optional(),
    session: SettingsSchema.shape.session.unwrap().partial().optional(),
  })
  .strict();

export type SettingsPatch = z.infer<typeof SettingsPatchSchema>;
