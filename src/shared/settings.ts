import { z } from 'zod';

/**
 * config.toml. Each section is declared once as plain fields (no defaults) plus its
 * defaults: the file schema fills in what is missing, the patch schema (settings UI) keeps
 * only what was sent — so changing one key never resets its neighbours.
 */
const shellFields = {
  /** Path of the shell to start; empty means $SHELL, then /bin/bash. */
  path: z.string(),
  args: z.array(z.string()),
  /** Inject OSC 133 shell integration into bash, zsh and fish. */
  integration: z.boolean(),
  login: z.boolean(),
};

const terminalFields = {
  fontFamily: z.string(),
  fontSize: z.number().int().min(6).max(72),
  scrollback: z.number().int().min(0).max(1_000_000),
  theme: z.enum(['system', 'dark', 'light']),
  cursorBlink: z.boolean(),
  /** GPU rendering where available; falls back to the DOM renderer on context loss. */
  webgl: z.boolean(),
  /** Copy the selection to the clipboard as soon as it is made. */
  copyOnSelect: z.boolean(),
};

const sessionFields = {
  /** Bring back tabs, splits, cwd and scrollback after a restart. */
  restore: z.boolean(),
};

const ShellSection = z.object(shellFields).strict();
const TerminalSection = z.object(terminalFields).strict();
const SessionSection = z.object(sessionFields).strict();

export type Settings = {
  shell: z.infer<typeof ShellSection>;
  terminal: z.infer<typeof TerminalSection>;
  session: z.infer<typeof SessionSection>;
};

export const DEFAULT_SETTINGS: Settings = {
  shell: { path: '', args: [], integration: true, login: true },
  terminal: {
    fontFamily: '"DejaVu Sans Mono", "Cascadia Code", Menlo, monospace',
    fontSize: 14,
    scrollback: 10_000,
    theme: 'system',
    cursorBlink: true,
    webgl: true,
    copyOnSelect: false,
  },
  session: { restore: true },
};

/** A partial update, one or more sections, only the keys that change. */
export const SettingsPatchSchema = z
  .object({
    shell: ShellSection.partial().optional(),
    terminal: TerminalSection.partial().optional(),
    session: SessionSection.partial().optional(),
  })
  .strict();

export type SettingsPatch = z.infer<typeof SettingsPatchSchema>;

/** The file: any subset of the keys; what is missing comes from the defaults. */
export const SettingsSchema = SettingsPatchSchema.transform((file): Settings => applySettingsPatch(DEFAULT_SETTINGS, file));

export function applySettingsPatch(base: Settings, patch: SettingsPatch): Settings {
  const defined = <T extends object>(values: T | undefined) =>
    Object.fromEntries(Object.entries(values ?? {}).filter(([, value]) => value !== undefined)) as Partial<T>;
  return {
    shell: { ...base.shell, ...defined(patch.shell) },
    terminal: { ...base.terminal, ...defined(patch.terminal) },
    session: { ...base.session, ...defined(patch.session) },
  };
}
