import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import type { RestoredLayoutNode, RestoredSession } from '../../shared/protocol';
import { writeFileAtomic } from '../settings/atomicWrite';

/** What a pane needs to come back: where it was and what it showed. */
export interface SavedPane {
  key: string;
  cwd: string;
  shell: string;
  /** Serialized screen and scrollback (escape sequences). */
  scrollback: string;
}

const SavedLayoutSchema: z.ZodType<RestoredLayoutNode> = z.lazy(() =>
  z.union([
    z.object({ kind: z.literal('pane'), restoreKey: z.string(), cwd: z.string(), shell: z.string() }),
    z.object({
      kind: z.literal('split'),
      direction: z.enum(['row', 'column']),
      sizes: z.array(z.number()),
      children: z.array(SavedLayoutSchema),
    }),
  ]),
);

const SavedSessionSchema = z.object({
  version: z.literal(1),
  savedAt: z.number(),
  tabs: z.array(z.object({ title: z.string(), layout: SavedLayoutSchema, focusedRestoreKey: z.string().optional() })),
  activeTab: z.number(),
  panes: z.array(z.object({ key: z.string(), cwd: z.string(), shell: z.string(), scrollback: z.string() })),
});
export type SavedSession = z.infer<typeof SavedSessionSchema>;

/** The session file: the last good layout and scrollback, replaced atomically on every save. */
export class SessionStore {
  private loaded: SavedSession | undefined;

  constructor(private readonly path: string) {}

  /** The previous session, or undefined when there is none or it is unreadable. */
  load(): { session?: SavedSession; error?: string } {
    if (!existsSync(this.path)) return {};
    try {
      const parsed = SavedSessionSchema.safeParse(JSON.parse(readFileSync(this.path, 'utf8')));
      if (!parsed.success) return { error: `The saved session in ${this.path} has an unknown format; starting fresh.` };
      this.loaded = parsed.data;
      return { session: parsed.data };
    } catch (error) {
      return { error: `The saved session in ${this.path} could not be read (${(error as Error).message}); starting fresh.` };
    }
  }

  restoredLayout(): RestoredSession | undefined {
    if (!this.loaded || this.loaded.tabs.length === 0) return undefined;
    return { tabs: this.loaded.tabs, activeTab: this.loaded.activeTab };
  }

  /** Scrollback saved for a pane of the previous session (each is handed out once). */
  takeScrollback(key: string): (SavedPane & { savedAt: number }) | undefined {
    const pane = this.loaded?.panes.find((candidate) => candidate.key === key);
    if (!pane || !this.loaded) return undefined;
    this.loaded.panes = this.loaded.panes.filter((candidate) => candidate !== pane);
    return { ...pane, savedAt: this.loaded.savedAt };
  }

  save(session: Omit<SavedSession, 'version' | 'savedAt'>): void {
    const content: SavedSession = { version: 1, savedAt: Date.now(), ...session };
    writeFileAtomic(this.path, JSON.stringify(content));
  }
}
