import { openSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { ReadStream, WriteStream } from 'node:tty';

/**
 * The controlling terminal (/dev/tty), for questions to the person at it even when stdin is
 * a pipe (`journalctl | tandem agent -c …`): a single key, or a line of text to edit.
 */
export class TerminalPrompter {
  private constructor(
    private readonly input: ReadStream,
    private readonly output: WriteStream,
    /** Ctrl+C pressed at a question: the run is interrupted, as a SIGINT would. */
    private readonly onInterrupt: () => void,
  ) {
    input.pause();
  }

  /** The terminal, or undefined when this process has none (a cron job, `ssh -T`). */
  static open(onInterrupt: () => void): TerminalPrompter | undefined {
    try {
      const input = new ReadStream(openSync('/dev/tty', 'r'));
      const output = new WriteStream(openSync('/dev/tty', 'w'));
      return new TerminalPrompter(input, output, onInterrupt);
    } catch {
      return undefined;
    }
  }

  write(text: string): void {
    this.output.write(text);
  }

  /** One of `keys` (lowercase); Enter gives `enterKey`, Ctrl+D 'q'. Ctrl+C interrupts the run and gives undefined. */
  key(prompt: string, keys: readonly string[], enterKey: string): Promise<string | undefined> {
    this.output.write(prompt);
    return new Promise((resolve) => {
      this.input.setRawMode(true);
      const onData = (data: Buffer) => {
        const text = data.toString('utf8');
        let key: string | undefined;
        if (text === '\x03' || text === '\x04') key = 'q';
        else if (text === '\r' || text === '\n') key = enterKey;
        else if (keys.includes(text.toLowerCase())) key = text.toLowerCase();
        if (key === undefined) return;
        this.input.removeListener('data', onData);
        this.input.setRawMode(false);
        this.input.pause();
        if (text === '\x03') {
          this.output.write('^C\n');
          this.onInterrupt();
          resolve(undefined);
          return;
        }
        this.output.write(`${key}\n`);
        resolve(key);
      };
      this.input.on('data', onData);
      this.input.resume();
    });
  }

  /** A line of text, starting as `initial` (to edit it); undefined at Ctrl+C or Ctrl+D. */
  line(prompt: string, initial = ''): Promise<string | undefined> {
    return new Promise((resolve) => {
      const reader = createInterface({ input: this.input, output: this.output, terminal: true, historySize: 0 });
      let answered = false;
      const done = (value: string | undefined) => {
        if (answered) return;
        answered = true;
        reader.close();
        this.input.pause();
        resolve(value);
      };
      reader.on('SIGINT', () => {
        this.output.write('\n');
        done(undefined);
        this.onInterrupt();
      });
      reader.on('close', () => done(undefined));
      reader.question(prompt, (answer) => done(answer));
      if (initial) reader.write(initial);
    });
  }

  close(): void {
    this.input.destroy();
    this.output.destroy();
  }
}
