import { Cron } from 'croner';
import { z } from 'zod';
import { durationMs } from '../../shared/duration';

const Duration = z
  .string()
  .refine((text) => durationMs(text) !== undefined, 'a duration such as "500ms", "2s" or "1m"')
  .transform((text) => durationMs(text)!)
  .pipe(z.number().max(3_600_000, 'at most 1h'));

const Globs = z.union([z.string().min(1), z.array(z.string().min(1)).min(1).max(50)]).transform((value) => (typeof value === 'string' ? [value] : value));

/** The instruction to the model, with or without the `#` it is typed with at a prompt. */
const Instruction = z
  .string()
  .transform((text) => text.trim().replace(/^#\s*/, ''))
  .pipe(z.string().min(1, 'say what the agent should do').max(4_000));

/** Why a regular expression cannot be used, or undefined. */
function regexProblem(source: string): string | undefined {
  try {
    new RegExp(source, 'm');
    return undefined;
  } catch (error) {
    return `not a valid regular expression: ${(error as Error).message}`;
  }
}

const Regex = z.string().min(1).superRefine((source, context) => {
  const problem = regexProblem(source);
  if (problem) context.addIssue({ code: 'custom', message: problem });
});

/** Why croner refuses a cron expression (and timezone), or undefined. Croner checks a timezone only when it computes a run. */
export function cronProblem(expression: string, timezone?: string): string | undefined {
  try {
    const cron = new Cron(expression, { paused: true, ...(timezone ? { timezone } : {}) });
    cron.nextRun();
    cron.stop();
    return undefined;
  } catch (error) {
    return (error as Error).message.replace(/^CronPattern: /, '');
  }
}

/**
 * `exit` of a block watcher: `"any"`, an exit code (`"0"`, `"130"`), or `"!=N"` for every
 * other code. A block without an exit code (the shell did not report one) matches only "any".
 */
export const EXIT_SPEC = /^(any|!=\d{1,3}|\d{1,3})$/;

const common = {
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'letters, digits, _ . and -, starting with a letter or digit, at most 64'),
  instruction: Instruction,
  action: z.enum(['notify', 'ask', 'auto']).default('notify'),
  /**
   * Which of the user's panes a block watcher hears: every pane, or the one typed in last.
   * Not a pane number (they change across restarts) nor a tab title (the engine does not
   * know titles): docs/watchers.md.
   */
  pane: z.enum(['any', 'focused']).optional(),
  cwd: z.string().min(1).optional(),
  debounce: Duration.default(500),
  max_runs_per_hour: z.number().int().min(1).max(60).default(6),
  enabled: z.boolean().default(true),
};

const FileChange = z
  .strictObject({ ...common, trigger: z.literal('file_change'), path: Globs })
  .refine((watcher) => watcher.pane === undefined, { message: 'a file_change watcher watches a folder: name it with cwd', path: ['pane'] });

const BlockWatcher = z.strictObject({
  ...common,
  trigger: z.literal('block'),
  command: z.string().min(1).optional(),
  exit: z.string().regex(EXIT_SPEC, '"0", "!=0", "130" or "any"').default('!=0'),
  output: Regex.optional(),
});

const Schedule = z
  .strictObject({ ...common, trigger: z.literal('schedule'), cron: z.string().min(1), timezone: z.string().min(1).optional() })
  .superRefine((watcher, context) => {
    const problem = cronProblem(watcher.cron, watcher.timezone);
    if (problem) context.addIssue({ code: 'custom', path: [watcher.timezone && /timezone/i.test(problem) ? 'timezone' : 'cron'], message: problem });
  });

const ScreenChange = z
  .strictObject({
    ...common,
    trigger: z.literal('screen_change'),
    app: z.string().min(1).optional(),
    title: z.string().min(1).optional(),
    pattern: Regex.optional(),
    interval: Duration.default(5_000).pipe(z.number().min(5_000, 'at least "5s" (each look reads the window with OCR)')),
  })
  .refine((watcher) => watcher.app !== undefined || watcher.title !== undefined, { message: 'name the window: app or title', path: ['app'] });

const Voice = z.strictObject({ ...common, trigger: z.literal('voice'), phrase: z.string().trim().min(2).max(200) });

export const WatcherSchema = z
  .discriminatedUnion('trigger', [FileChange, BlockWatcher, Schedule, ScreenChange, Voice])
  .refine((watcher) => watcher.pane === undefined || watcher.cwd === undefined, { message: 'pane or cwd, not both', path: ['cwd'] });

export const WatchersFileSchema = z
  .strictObject({ watcher: z.array(WatcherSchema).max(100).default([]) })
  .superRefine((file, context) => {
    const seen = new Set<string>();
    file.watcher.forEach((watcher, index) => {
      if (seen.has(watcher.name)) context.addIssue({ code: 'custom', path: ['watcher', index, 'name'], message: `"${watcher.name}" is the name of an earlier watcher; names must differ` });
      seen.add(watcher.name);
    });
  });

export type WatcherConfig = z.infer<typeof WatcherSchema>;
export type WatcherTrigger = WatcherConfig['trigger'];
export type FileChangeWatcher = Extract<WatcherConfig, { trigger: 'file_change' }>;
export type BlockWatcherConfig = Extract<WatcherConfig, { trigger: 'block' }>;
export type ScheduleWatcher = Extract<WatcherConfig, { trigger: 'schedule' }>;
export type ScreenChangeWatcher = Extract<WatcherConfig, { trigger: 'screen_change' }>;
export type VoiceWatcher = Extract<WatcherConfig, { trigger: 'voice' }>;
