import { dialog, type BrowserWindow, type MessageBoxOptions } from 'electron';
import type { CloseQuestion } from '../../shared/closeQuestion';

/**
 * Closing the window (which quits the app) or quitting asks first when programs run in the
 * panes, as `[terminal] confirm_close` says (the engine words the question). A native dialog:
 * it answers even when the page hangs, and its default button, Cancel, is what Enter and
 * Esc choose. Once the user chose to quit, nothing asks again.
 */
export class QuitConfirmation {
  private confirmed = false;
  private asking = false;

  constructor(
    private readonly question: () => CloseQuestion | undefined,
    private readonly window: () => BrowserWindow | undefined,
  ) {}

  /**
   * True when closing may go on now (nothing to ask, or the user already chose to quit).
   * Otherwise the question is shown (once, however often this is called meanwhile), the
   * caller stops the close, and `goOn` runs if the user chooses to quit.
   */
  mayClose(goOn: () => void): boolean {
    if (this.confirmed) return true;
    const question = this.question();
    if (!question) return true;
    if (!this.asking) {
      this.asking = true;
      void this.ask(question)
        .catch(() => false)
        .then((quit) => {
          if (!quit) return;
          this.confirmed = true;
          goOn();
        })
        .finally(() => (this.asking = false));
    }
    return false;
  }

  /** Quitting goes on without asking (the window's page is lost for good). */
  skip(): void {
    this.confirmed = true;
  }

  private async ask(question: CloseQuestion): Promise<boolean> {
    const options: MessageBoxOptions = {
      type: 'question',
      title: 'Tandem',
      message: question.title,
      detail: question.message,
      buttons: ['Cancel', question.confirmLabel],
      defaultId: 0,
      cancelId: 0,
      noLink: true,
    };
    const window = this.window();
    const { response } = window && !window.isDestroyed() ? await dialog.showMessageBox(window, options) : await dialog.showMessageBox(options);
    return response === 1;
  }
}
