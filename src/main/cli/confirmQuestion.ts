import { createInterface } from 'node:readline/promises';

/** Asks a yes/no question on stderr and reads one line of stdin: true only for "y" or "yes". */
export async function confirm(question: string, io: { stdin: NodeJS.ReadableStream; stderr: NodeJS.WritableStream }): Promise<boolean> {
  const prompt = createInterface({ input: io.stdin, output: io.stderr, terminal: false });
  try {
    io.stderr.write(question);
    const answer = await new Promise<string>((resolve) => {
      prompt.once('line', resolve);
      prompt.once('close', () => resolve(''));
    });
    return /^\s*y(es)?\s*$/i.test(answer);
  } finally {
    prompt.close();
  }
}
