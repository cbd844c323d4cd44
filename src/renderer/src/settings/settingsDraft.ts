import type { ZodType } from 'zod';
import { ENV_NAME_PATTERN, SETTING_LIMITS, type Settings, type SettingsPatch } from '../../../shared/settings';
import { MAX_RECORDING_SECONDS, voiceFields } from '../../../shared/voiceSettings';

/**
 * What the settings dialog edits: the settings as form fields (numbers as typed text), and
 * the patch that sends only what changed, once every field is checked.
 */
export interface Draft {
  shellPath: string;
  integration: boolean;
  fontFamily: string;
  fontSize: string;
  scrollback: string;
  theme: Settings['terminal']['theme'];
  cursorBlink: boolean;
  webgl: boolean;
  copyOnSelect: boolean;
  confirmClose: Settings['terminal']['confirm_close'];
  sessionRestore: boolean;
  aiBackend: Settings['ai']['backend'];
  aiModel: string;
  aiBaseUrl: string;
  aiStepsUsePager: boolean;
  aiMaxOutputTokens: string;
  aiStepTimeout: string;
  aiContextBlocks: string;
  aiHistoryBudget: string;
  aiSessionBudget: string;
  aiSmallModel: string;
  /** `[context] include_env`, as names separated by spaces or commas. */
  includeEnv: string;
  companionHints: boolean;
  companionErrorCascade: string;
  companionRetryLoop: string;
  companionLongPause: string;
  voiceEndpoint: string;
  voiceModel: string;
  voiceLanguage: string;
  voiceApiKeyEnv: string;
  voiceKey: string;
  voiceMode: Settings['voice']['push_to_talk_mode'];
  voiceSend: Settings['voice']['send'];
  voiceMaxSeconds: string;
  voiceSpeakAnswers: boolean;
  voiceSpeechEndpoint: string;
}

export function draftFrom(settings: Settings): Draft {
  return {
    shellPath: settings.shell.path,
    integration: settings.shell.integration,
    fontFamily: settings.terminal.font_family,
    fontSize: String(settings.terminal.font_size),
    scrollback: String(settings.terminal.scrollback),
    theme: settings.terminal.theme,
    cursorBlink: settings.terminal.cursor_blink,
    webgl: settings.terminal.webgl,
    copyOnSelect: settings.terminal.copy_on_select,
    confirmClose: settings.terminal.confirm_close,
    sessionRestore: settings.session.restore,
    aiBackend: settings.ai.backend,
    aiModel: settings.ai.model,
    aiBaseUrl: settings.ai.base_url,
    aiMaxOutputTokens: String(settings.ai.max_output_tokens),
    aiStepTimeout: String(settings.ai.step_timeout_seconds),
    aiStepsUsePager: settings.ai.steps_use_pager,
    aiContextBlocks: String(settings.ai.context_blocks),
    aiHistoryBudget: String(settings.ai.history_token_budget),
    aiSessionBudget: String(settings.ai.session_token_budget),
    aiSmallModel: settings.ai.small_model,
    includeEnv: settings.context.include_env.join(' '),
    companionHints: settings.companion.hints,
    companionErrorCascade: String(settings.companion.error_cascade),
    companionRetryLoop: String(settings.companion.retry_loop),
    companionLongPause: String(settings.companion.long_pause_seconds),
    voiceEndpoint: settings.voice.endpoint,
    voiceModel: settings.voice.model,
    voiceLanguage: settings.voice.language,
    voiceApiKeyEnv: settings.voice.api_key_env,
    voiceKey: settings.voice.push_to_talk_key,
    voiceMode: settings.voice.push_to_talk_mode,
    voiceSend: settings.voice.send,
    voiceMaxSeconds: String(settings.voice.max_seconds),
    voiceSpeakAnswers: settings.voice.speak_answers,
    voiceSpeechEndpoint: settings.voice.speech_endpoint,
  };
}

export const THEME_LABELS: Record<Settings['terminal']['theme'], string> = { system: 'Follow system', dark: 'Dark', light: 'Light' };
export const CONFIRM_CLOSE_LABELS: Record<Settings['terminal']['confirm_close'], string> = {
  running: 'When programs are running',
  always: 'Always',
  never: 'Never',
};
export const PUSH_TO_TALK_MODE_LABELS: Record<Settings['voice']['push_to_talk_mode'], string> = { hold: 'Hold the key', toggle: 'Press to start, press to stop' };
export const VOICE_SEND_LABELS: Record<Settings['voice']['send'], string> = { review: 'Wait in the input (Enter sends)', immediately: 'Send at once' };
export const BACKEND_LABELS: Record<Settings['ai']['backend'], string> = { anthropic: 'Anthropic', 'openai-compatible': 'OpenAI-compatible' };

function parseWhole(text: string, label: string, { min, max }: { min: number; max: number }): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${label} must be a whole number from ${min} to ${max}.`);
  }
  return value;
}

/** A text field checked by the same zod rule the engine applies to config.toml. */
function checked(value: string, label: string, rule: ZodType<string>): string {
  const result = rule.safeParse(value);
  if (!result.success) throw new Error(`${label}: ${result.error.issues[0]?.message ?? 'not valid'}.`);
  return result.data;
}

function voicePatch(draft: Draft, settings: Settings): SettingsPatch['voice'] {
  const voice: NonNullable<SettingsPatch['voice']> = {};
  const now = settings.voice;
  const endpoint = checked(draft.voiceEndpoint.trim(), 'Transcription endpoint', voiceFields.endpoint);
  const model = checked(draft.voiceModel.trim(), 'Transcription model', voiceFields.model);
  const language = checked(draft.voiceLanguage.trim(), 'Spoken language', voiceFields.language);
  const apiKeyEnv = checked(draft.voiceApiKeyEnv.trim(), 'Key variable', voiceFields.api_key_env);
  const key = checked(draft.voiceKey.trim(), 'Push-to-talk key', voiceFields.push_to_talk_key);
  const speechEndpoint = checked(draft.voiceSpeechEndpoint.trim(), 'Speech endpoint', voiceFields.speech_endpoint);
  const maxSeconds = parseWhole(draft.voiceMaxSeconds, 'Longest recording', { min: 1, max: MAX_RECORDING_SECONDS });
  if (endpoint !== now.endpoint) voice.endpoint = endpoint;
  if (model !== now.model) voice.model = model;
  if (language !== now.language) voice.language = language;
  if (apiKeyEnv !== now.api_key_env) voice.api_key_env = apiKeyEnv;
  if (key !== now.push_to_talk_key) voice.push_to_talk_key = key;
  if (draft.voiceMode !== now.push_to_talk_mode) voice.push_to_talk_mode = draft.voiceMode;
  if (draft.voiceSend !== now.send) voice.send = draft.voiceSend;
  if (maxSeconds !== now.max_seconds) voice.max_seconds = maxSeconds;
  if (draft.voiceSpeakAnswers !== now.speak_answers) voice.speak_answers = draft.voiceSpeakAnswers;
  if (speechEndpoint !== now.speech_endpoint) voice.speech_endpoint = speechEndpoint;
  return Object.keys(voice).length > 0 ? voice : undefined;
}

/** Only what changed goes to the engine, one section at a time. */
export function patchFrom(draft: Draft, settings: Settings): SettingsPatch {
  const patch: SettingsPatch = {};
  const shell: NonNullable<SettingsPatch['shell']> = {};
  if (draft.shellPath.trim() !== settings.shell.path) shell.path = draft.shellPath.trim();
  if (draft.integration !== settings.shell.integration) shell.integration = draft.integration;
  if (Object.keys(shell).length > 0) patch.shell = shell;

  const terminal: NonNullable<SettingsPatch['terminal']> = {};
  const fontSize = parseWhole(draft.fontSize, 'Font size', SETTING_LIMITS.fontSize);
  const scrollback = parseWhole(draft.scrollback, 'Scrollback', SETTING_LIMITS.scrollback);
  if (draft.fontFamily.trim() && draft.fontFamily.trim() !== settings.terminal.font_family) terminal.font_family = draft.fontFamily.trim();
  if (fontSize !== settings.terminal.font_size) terminal.font_size = fontSize;
  if (scrollback !== settings.terminal.scrollback) terminal.scrollback = scrollback;
  if (draft.theme !== settings.terminal.theme) terminal.theme = draft.theme;
  if (draft.cursorBlink !== settings.terminal.cursor_blink) terminal.cursor_blink = draft.cursorBlink;
  if (draft.webgl !== settings.terminal.webgl) terminal.webgl = draft.webgl;
  if (draft.copyOnSelect !== settings.terminal.copy_on_select) terminal.copy_on_select = draft.copyOnSelect;
  if (draft.confirmClose !== settings.terminal.confirm_close) terminal.confirm_close = draft.confirmClose;
  if (Object.keys(terminal).length > 0) patch.terminal = terminal;

  if (draft.sessionRestore !== settings.session.restore) patch.session = { restore: draft.sessionRestore };

  const ai: NonNullable<SettingsPatch['ai']> = {};
  const maxOutputTokens = parseWhole(draft.aiMaxOutputTokens, 'Max output tokens', SETTING_LIMITS.maxOutputTokens);
  const stepTimeoutSeconds = parseWhole(draft.aiStepTimeout, 'Step timeout', SETTING_LIMITS.stepTimeoutSeconds);
  const contextBlocks = parseWhole(draft.aiContextBlocks, 'Recent commands in context', SETTING_LIMITS.contextBlocks);
  const historyTokenBudget = parseWhole(draft.aiHistoryBudget, 'History budget', SETTING_LIMITS.historyTokenBudget);
  const sessionTokenBudget = parseWhole(draft.aiSessionBudget, 'Session token budget', SETTING_LIMITS.sessionTokenBudget);
  if (draft.aiBackend !== settings.ai.backend) ai.backend = draft.aiBackend;
  if (draft.aiModel.trim() !== settings.ai.model) ai.model = draft.aiModel.trim();
  if (draft.aiSmallModel.trim() !== settings.ai.small_model) ai.small_model = draft.aiSmallModel.trim();
  if (draft.aiBaseUrl.trim() !== settings.ai.base_url) ai.base_url = draft.aiBaseUrl.trim();
  if (maxOutputTokens !== settings.ai.max_output_tokens) ai.max_output_tokens = maxOutputTokens;
  if (stepTimeoutSeconds !== settings.ai.step_timeout_seconds) ai.step_timeout_seconds = stepTimeoutSeconds;
  if (draft.aiStepsUsePager !== settings.ai.steps_use_pager) ai.steps_use_pager = draft.aiStepsUsePager;
  if (contextBlocks !== settings.ai.context_blocks) ai.context_blocks = contextBlocks;
  if (historyTokenBudget !== settings.ai.history_token_budget) ai.history_token_budget = historyTokenBudget;
  if (sessionTokenBudget !== settings.ai.session_token_budget) ai.session_token_budget = sessionTokenBudget;
  if (Object.keys(ai).length > 0) patch.ai = ai;

  const includeEnv = draft.includeEnv.split(/[\s,]+/).filter(Boolean);
  const badName = includeEnv.find((name) => !ENV_NAME_PATTERN.test(name));
  if (badName) throw new Error(`"${badName}" is not an environment variable name.`);
  if (includeEnv.length > SETTING_LIMITS.includedEnv) throw new Error(`At most ${SETTING_LIMITS.includedEnv} environment variables can be shared.`);
  if (includeEnv.join(' ') !== settings.context.include_env.join(' ')) patch.context = { include_env: includeEnv };

  const companion: NonNullable<SettingsPatch['companion']> = {};
  const errorCascade = parseWhole(draft.companionErrorCascade, 'Failures in a row', SETTING_LIMITS.errorCascade);
  const retryLoop = parseWhole(draft.companionRetryLoop, 'Same command failing', SETTING_LIMITS.retryLoop);
  const longPause = parseWhole(draft.companionLongPause, 'Pause after an error', SETTING_LIMITS.longPauseSeconds);
  if (draft.companionHints !== settings.companion.hints) companion.hints = draft.companionHints;
  if (errorCascade !== settings.companion.error_cascade) companion.error_cascade = errorCascade;
  if (retryLoop !== settings.companion.retry_loop) companion.retry_loop = retryLoop;
  if (longPause !== settings.companion.long_pause_seconds) companion.long_pause_seconds = longPause;
  if (Object.keys(companion).length > 0) patch.companion = companion;

  const voice = voicePatch(draft, settings);
  if (voice) patch.voice = voice;
  return patch;
}
