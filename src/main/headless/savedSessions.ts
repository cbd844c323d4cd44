import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { AgentMessage } from '../agent/backends/modelBackend';

/**
 * Headless conversations kept for `tandem agent --session ID`: the model's history of each
 * run (scrubbed of secrets as it was kept), in `$XDG_STATE_HOME/tandem/agent-sessions/ID.json`,
 * readable by the user alone. The panel's items are not kept: a continued run shows only
 * what it does itself.
 */
const SavedSession = z.object({
  version: z.literal(1),
  id: z.string(),
  savedAt: z.string(),
  messages: z.array(z.object({ role: z.enum(['user', 'assistant']), content: z.array(z.looseObject({ type: z.string() })) })),
});

const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function sessionsDir(stateDir: string): string {
  return join(stateDir, 'agent-sessions');
}

/** The saved conversation, or why it cannot be continued. */
export function loadSession(stateDir: string, id: string): { id: string; messages: AgentMessage[] } | { error: string } {
  if (!SESSION_ID.test(id)) return { error: `--session takes the session_id of an earlier run (a UUID such as 3f2a…), not "${id}".` };
  const file = join(sessionsDir(stateDir), `${id}.json`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    return { error: missing ? `there is no saved session ${id} (${file}).` : `the saved session ${id} could not be read: ${(error as Error).message}.` };
  }
  let parsed: z.infer<typeof SavedSession>;
  try {
    parsed = SavedSession.parse(JSON.parse(text));
  } catch (error) {
    return { error: `the saved session ${file} is damaged (${(error as Error).message.split('\n')[0]}); start a new one.` };
  }
  return { id: parsed.id, messages: parsed.messages as unknown as AgentMessage[] };
}

/** Keeps a run's conversation (replacing the file atomically); never throws — the run's result matters more. */
export function saveSession(stateDir: string, saved: { id: string; messages: AgentMessage[] }): string | undefined {
  if (saved.messages.length === 0) return undefined;
  try {
    const dir = sessionsDir(stateDir);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, `${saved.id}.json`);
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify({ version: 1, id: saved.id, savedAt: new Date().toISOString(), messages: saved.messages }), { mode: 0o600 });
    renameSync(temporary, file);
    return undefined;
  } catch (error) {
    return `the conversation could not be saved for --session: ${(error as Error).message}`;
  }
}
