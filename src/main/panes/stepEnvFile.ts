import { rmSync, writeFileSync } from 'node:fs';
import { stepEnvFileText } from '../agent/plan/stepEnvironment';

/**
 * A plan step's environment on its way to the shell: written to the file the integration
 * reads when the step's line is entered, and removed at the next prompt if the shell never
 * took it (a syntax error), so it cannot reach the user's next command.
 */
export class StepEnvFile {
  private written = false;

  constructor(private readonly path: () => string | undefined) {}

  /** Writes `env` for the next command line; `failed` hears why it could not be (the step then runs without it). */
  write(env: Readonly<Record<string, string>>, failed: (error: unknown) => void): void {
    const file = this.path();
    if (!file) return;
    try {
      writeFileSync(file, stepEnvFileText(env), { mode: 0o600 });
      this.written = true;
    } catch (error) {
      failed(error);
    }
  }

  /** A prompt is back: a file the shell did not take goes. */
  promptShown(): void {
    if (!this.written) return;
    this.written = false;
    const file = this.path();
    if (file) rmSync(file, { force: true });
  }
}
