import { z } from 'zod';
import { CONFIRM_CLOSE_CHOICES } from './closeQuestion';
import { ENV_NAME_PATTERN } from './environmentName';
import { keyChordProblem } from './keyChord';
import { DEFAULT_VOICE_SETTINGS, VoiceSection } from './voiceSettings';
import { DEFAULT_WATCHER_SETTINGS, WatchersSection } from './watcherSettings';

export { ENV_NAME_PATTERN };

/**
 * config.toml. Each section is declared once as plain fields (no defaults) plus its
 * defaults: the file schema fills in what is missing, the patch schema (settings UI) keeps
 * only what was sent — so changing one key never resets its neighbours. Every key is
 * snake_case, the TOML convention (Alacritty, starship); the camelCase spellings of older
 * versions are still read (src/main/settings/keySpelling.ts).
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
  font_family: z.string(),
  font_size: z.number().int().min(6).max(72),
  scrollback: z.number().int().min(0).max(1_000_000),
  theme: z.enum(['system', 'dark', 'light']),
  cursor_blink: z.boolean(),
  /** GPU rendering where available; falls back to the DOM renderer on context loss. */
  webgl: z.boolean(),
  /** Copy the selection to the clipboard as soon as it is made. */
  copy_on_select: z.boolean(),
  /** Closing a pane, a tab or the window asks first: when programs run in it ("running"), always, or never. */
  confirm_close: z.enum(CONFIRM_CLOSE_CHOICES),
};

const sessionFields = {
  /** Bring back tabs, splits, cwd and scrollback after a restart. */
  restore: z.boolean(),
};

/** One `[[ai.fallback]]` table: a further backend, with the keys `[ai]` has for one. */
const required = (what: string) => ({ error: (issue: { input: unknown }) => (issue.input === undefined ? `required: ${what}` : undefined) });
const fallbackBackend = z.strictObject({
  backend: z.enum(['anthropic', 'openai-compatible'], required('"anthropic" or "openai-compatible"')),
  model: z.string(required('the model this backend answers with')).min(1, 'name the model this backend answers with').max(200),
  /** Empty: the vendor's endpoint. */
  base_url: z.string().max(2_000).default(''),
  /**
   * The environment variable holding its key. Empty: no key (a loopback endpoint needs none),
   * or, at the vendor's own endpoint, the backend's usual variable.
   */
  api_key_env: z.union([z.literal(''), z.string().regex(ENV_NAME_PATTERN, 'an environment variable name')]).default(''),
});

const aiFields = {
  /** `anthropic` (Messages API) or `openai-compatible` (OpenAI, Ollama, LM Studio ...). */
  backend: z.enum(['anthropic', 'openai-compatible']),
  /** Model id; the TANDEM_MODEL environment variable wins over it. */
  model: z.string().max(200),
  /** Endpoint; empty means ANTHROPIC_BASE_URL / the vendor default. For Ollama: http://127.0.0.1:11434/v1 */
  base_url: z.string().max(2_000),
  max_output_tokens: z.number().int().min(256).max(128_000),
  /** A plan step that runs longer is interrupted (SIGINT, then killed). */
  step_timeout_seconds: z.number().int().min(5).max(86_400),
  /** Plan steps may open a pager (git log → less); off, they run with PAGER=cat GIT_PAGER=cat …. */
  steps_use_pager: z.boolean(),
  /** How many recent blocks the standing context lists. */
  context_blocks: z.number().int().min(0).max(200),
  /** Conversation history kept for each request; older turns are dropped beyond it. */
  history_token_budget: z.number().int().min(2_000).max(1_000_000),
  /**
   * Once the history a request sends passes this share (in percent) of the model's context
   * window, older turns go as Tandem's summary of them; the newest stay whole. 0 = never.
   */
  compact_at_percent: z.number().int().min(0).max(90),
  /** Tokens (sent + received) the agent may use until the window closes: a warning at 80%, a stop at 100%; 0 = no limit. */
  session_token_budget: z.number().int().min(0).max(1_000_000_000),
  /** USD all of today's model requests (local day, every Tandem process) may cost; then new requests are refused. 0 = no limit. */
  daily_budget_usd: z.number().min(0).max(1_000_000),
  /**
   * The small model that summarizes long output.
   * Empty: the backend's cheapest current model (Anthropic: claude-haiku-4-5); an
   * OpenAI-compatible endpoint has none unless named here, and summaries are made locally.
   */
  small_model: z.string().max(200),
  /**
   * Anthropic's computer-use tool instead of the generic screenshot and ui_action tools, when
   * the model can use it ("auto") or never ("off").
   */
  computer_use: z.enum(['auto', 'off']),
  /** How deep child agents (spawn_agent) may nest: 1 lets the agent start children but not grandchildren; 0 turns spawn_agent off. */
  max_agent_depth: z.number().int().min(0).max(10),
  /** Child agents start with this window's "Allow for this session" grants (off: with none). */
  pass_grants_to_children: z.boolean(),
  /** `[[ai.fallback]]`: further backends, tried in order when the one above cannot be reached (docs/ai.md). */
  fallback: z.array(fallbackBackend).max(10),
};

/** Watch mode's hints and `!auto` runs. */
const companionFields = {
  /** Hints in the status bar when the user looks stuck; made from blocks alone, never a model call. */
  hints: z.boolean(),
  /** Failed commands in a row (Ctrl+C and expected failures such as `grep -q` aside) before "Stuck?". */
  error_cascade: z.number().int().min(2).max(100),
  /** Times the same command fails in a row before "Try `?? why isn't this working`". */
  retry_loop: z.number().int().min(2).max(100),
  /** Seconds without input in the focused pane after a failed command; 0 = no such hint. */
  long_pause_seconds: z.number().int().min(0).max(3_600),
  /** An `!auto` run stops after this many steps. */
  auto_max_steps: z.number().int().min(1).max(500),
  /** An `!auto` run's step is interrupted after this long (the run goes on; the model hears it timed out). */
  auto_step_timeout_seconds: z.number().int().min(5).max(86_400),
  /** An `!auto` run stops after this long in all. */
  auto_time_limit_minutes: z.number().int().min(1).max(1_440),
  /** An `!auto` run stops once its requests used this many tokens (the session budget applies too). */
  auto_token_budget: z.number().int().min(1_000).max(100_000_000),
};

/** zod keeps an array's maximum to itself, so it is named here. */
const MAX_INCLUDED_ENV = 100;

const contextFields = {
  /**
   * Environment variables the model may see, by name. Names ending in _KEY, _SECRET, _TOKEN,
   * _PASSWORD (and the like) are never sent, even when listed; values are scrubbed.
   */
  include_env: z.array(z.string().regex(ENV_NAME_PATTERN, 'an environment variable name')).max(MAX_INCLUDED_ENV),
};

/**
 * The bounds and choices of the settings, read off the schema so the settings UI never
 * writes them a second time.
 */
export const SETTING_LIMITS = {
  fontSize: numberLimits(terminalFields.font_size),
  scrollback: numberLimits(terminalFields.scrollback),
  maxOutputTokens: numberLimits(aiFields.max_output_tokens),
  stepTimeoutSeconds: numberLimits(aiFields.step_timeout_seconds),
  contextBlocks: numberLimits(aiFields.context_blocks),
  historyTokenBudget: numberLimits(aiFields.history_token_budget),
  sessionTokenBudget: numberLimits(aiFields.session_token_budget),
  modelLength: aiFields.model.maxLength ?? Number.MAX_SAFE_INTEGER,
  baseUrlLength: aiFields.base_url.maxLength ?? Number.MAX_SAFE_INTEGER,
  includedEnv: MAX_INCLUDED_ENV,
  errorCascade: numberLimits(companionFields.error_cascade),
  retryLoop: numberLimits(companionFields.retry_loop),
  longPauseSeconds: numberLimits(companionFields.long_pause_seconds),
  themes: terminalFields.theme.options,
  confirmClose: terminalFields.confirm_close.options,
  backends: aiFields.backend.options,
} as const;

function numberLimits(schema: z.ZodNumber): { min: number; max: number } {
  return { min: schema.minValue ?? Number.MIN_SAFE_INTEGER, max: schema.maxValue ?? Number.MAX_SAFE_INTEGER };
}

const telemetryFields = {
  /** Off: no span is made and nothing is written (docs/telemetry.md). */
  enabled: z.boolean(),
  /** Prompts and command text in spans, scrubbed of secrets; off by default. */
  include_content: z.boolean(),
  /** traces.jsonl keeps the spans of this many days. */
  retain_days: z.number().int().min(1).max(3_650),
  /** An OTLP/HTTP collector's base URL (spans go to …/v1/traces); empty: only the OTEL_ variables turn OTLP on. */
  otlp_endpoint: z
    .string()
    .max(2_000)
    .refine((text) => text === '' || /^https?:\/\/[^/\s]/.test(text), 'must be an http:// or https:// URL, or empty'),
};

/** `[history] exclude`: globs (`*` spans spaces and slashes), or `/regex/` entries that must compile. */
const excludePatterns = z
  .array(z.string().min(1, 'an empty pattern would match nothing; remove it').max(1_000))
  .max(200)
  .superRefine((patterns, context) => {
    patterns.forEach((pattern, index) => {
      const problem = regexProblem(pattern);
      if (problem) context.addIssue({ code: 'custom', message: `entry ${index + 1}, ${pattern}: ${problem}` });
    });
  });

/** Why a `/regex/` entry cannot be used, or undefined (globs are always usable). */
export function regexProblem(pattern: string): string | undefined {
  if (!(pattern.length > 2 && pattern.startsWith('/') && pattern.endsWith('/'))) return undefined;
  try {
    new RegExp(pattern.slice(1, -1));
    return undefined;
  } catch (error) {
    return `not a valid regular expression: ${(error as Error).message}`;
  }
}

/** Every finished block, kept in the history database (docs/configuration.md#history). */
const historyFields = {
  /** Off: nothing is recorded (what is stored stays, and stays searchable). */
  enabled: z.boolean(),
  /** What of a block's output is kept: first and last lines with the error lines, nothing, or all of it. */
  keep_output: z.enum(['digest', 'none', 'full']),
  /** The most of a block's output (digest or full) kept, in KiB. */
  max_output_kb: z.number().int().min(1).max(1_024),
  /** Commands not stored: globs (`*` matches anything) or `/regex/`, matched against the whole command. */
  exclude: excludePatterns,
  /** Records older than this many days are deleted; 0 = kept for ever. */
  max_days: z.number().int().min(0).max(36_500),
  /** The oldest records go once the database is larger than this many MB; 0 = no limit. */
  max_mb: z.number().int().min(0).max(1_000_000),
  /** The key that opens the history search; empty: Ctrl+Shift+R (Cmd+Shift+R on macOS). */
  search_key: z
    .string()
    .max(60)
    .superRefine((chord, context) => {
      const problem = chord === '' ? undefined : keyChordProblem(chord);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    }),
};

/** `ssh` typed in a pane (docs/ssh.md). */
const sshFields = {
  /** auto: an interactive `ssh host` carries Tandem's integration to the remote shell; off: ssh is left alone. */
  integrate: z.enum(['auto', 'off']),
};

const ShellSection = z.object(shellFields).strict();
const TerminalSection = z.object(terminalFields).strict();
const SessionSection = z.object(sessionFields).strict();
const AiSection = z.object(aiFields).strict();
const ContextSection = z.object(contextFields).strict();
const CompanionSection = z.object(companionFields).strict();
const TelemetrySection = z.object(telemetryFields).strict();
const HistorySection = z.object(historyFields).strict();
const SshSection = z.object(sshFields).strict();

export type FallbackBackend = z.infer<typeof fallbackBackend>;

export type Settings = {
  shell: z.infer<typeof ShellSection>;
  terminal: z.infer<typeof TerminalSection>;
  session: z.infer<typeof SessionSection>;
  ai: z.infer<typeof AiSection>;
  context: z.infer<typeof ContextSection>;
  companion: z.infer<typeof CompanionSection>;
  telemetry: z.infer<typeof TelemetrySection>;
  history: z.infer<typeof HistorySection>;
  ssh: z.infer<typeof SshSection>;
  voice: z.infer<typeof VoiceSection>;
  watchers: z.infer<typeof WatchersSection>;
};

export const DEFAULT_SETTINGS: Settings = {
  shell: { path: '', args: [], integration: true, login: true },
  terminal: {
    font_family: '"DejaVu Sans Mono", "Cascadia Code", Menlo, monospace',
    font_size: 14,
    scrollback: 10_000,
    theme: 'system',
    cursor_blink: true,
    webgl: true,
    copy_on_select: false,
    confirm_close: 'running',
  },
  session: { restore: true },
  ai: {
    backend: 'anthropic',
    model: 'claude-sonnet-5-5',
    base_url: '',
    max_output_tokens: 8_192,
    step_timeout_seconds: 300,
    steps_use_pager: false,
    context_blocks: 20,
    history_token_budget: 60_000,
    compact_at_percent: 10,
    session_token_budget: 2_000_000,
    daily_budget_usd: 0,
    small_model: '',
    computer_use: 'auto',
    max_agent_depth: 3,
    pass_grants_to_children: false,
    fallback: [],
  },
  context: { include_env: ['LANG', 'TERM', 'VIRTUAL_ENV', 'CONDA_DEFAULT_ENV', 'NODE_ENV'] },
  companion: {
    hints: true,
    error_cascade: 3,
    retry_loop: 2,
    long_pause_seconds: 30,
    auto_max_steps: 50,
    auto_step_timeout_seconds: 300,
    auto_time_limit_minutes: 30,
    auto_token_budget: 1_000_000,
  },
  telemetry: { enabled: true, include_content: false, retain_days: 30, otlp_endpoint: '' },
  history: { enabled: true, keep_output: 'digest', max_output_kb: 64, exclude: [], max_days: 0, max_mb: 0, search_key: '' },
  ssh: { integrate: 'auto' },
  voice: DEFAULT_VOICE_SETTINGS,
  watchers: DEFAULT_WATCHER_SETTINGS,
};

/** A partial update, one or more sections, only the keys that change. */
export const SettingsPatchSchema = z
  .object({
    shell: ShellSection.partial().optional(),
    terminal: TerminalSection.partial().optional(),
    session: SessionSection.partial().optional(),
    ai: AiSection.partial().optional(),
    context: ContextSection.partial().optional(),
    companion: CompanionSection.partial().optional(),
    telemetry: TelemetrySection.partial().optional(),
    history: HistorySection.partial().optional(),
    ssh: SshSection.partial().optional(),
    voice: VoiceSection.partial().optional(),
    watchers: WatchersSection.partial().optional(),
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
    ai: { ...base.ai, ...defined(patch.ai) },
    context: { ...base.context, ...defined(patch.context) },
    companion: { ...base.companion, ...defined(patch.companion) },
    telemetry: { ...base.telemetry, ...defined(patch.telemetry) },
    history: { ...base.history, ...defined(patch.history) },
    ssh: { ...base.ssh, ...defined(patch.ssh) },
    voice: { ...base.voice, ...defined(patch.voice) },
    watchers: { ...base.watchers, ...defined(patch.watchers) },
  };
}

/** Every key of config.toml, by table, read off the schema (new keys join it by being declared above). */
export const SETTINGS_KEYS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  Object.entries(SettingsPatchSchema.shape).map(([table, section]) => [table, Object.keys(section.unwrap().shape)]),
);
