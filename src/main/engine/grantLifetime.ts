/**
 * How long "Allow for session" grants outlive the last window. A reload (F5, a renderer
 * reloaded after a crash) connects again within a second or two and is not a new session:
 * the grants stay, and the panel lists them again. A window that stays away this long was
 * closed: the grants end.
 */
export const GRANTS_KEPT_WITHOUT_WINDOW_MS = 30_000;

/** Ends the session's grants once no window has been connected for a while. */
export class GrantLifetime {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly revokeAll: () => void,
    private readonly keptMs: number = GRANTS_KEPT_WITHOUT_WINDOW_MS,
  ) {}

  /** The last window went away: its grants end unless one comes back in time. */
  windowGone(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.revokeAll();
    }, this.keptMs);
    // Nothing to revoke once the engine is on its way out.
    this.timer.unref();
  }

  /** A window is connected (again, or another took over): the grants go on. */
  windowBack(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  dispose(): void {
    this.windowBack();
  }
}
