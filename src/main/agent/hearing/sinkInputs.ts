import { execFile } from 'node:child_process';

/** One stream playing into the sound server (a PulseAudio "sink input"), as `pactl list sink-inputs` shows it. */
export interface SinkInput {
  index: number;
  /** Paused by its application: it plays nothing. */
  corked: boolean;
  /** `application.name`, when the application set it. */
  name?: string;
  /** `application.process.binary`, when the application set it. */
  binary?: string;
}

/** The longest pactl may take to list the streams. */
const PACTL_TIMEOUT_MS = 5_000;

/** `pactl -f json list sink-inputs` (pactl 16 and later): an array of streams with a `properties` object. */
export function sinkInputsFromJson(json: string): SinkInput[] {
  const parsed: unknown = JSON.parse(json);
  if (!Array.isArray(parsed)) throw new Error('pactl -f json list sink-inputs did not print an array');
  return parsed.map((entry: { index?: unknown; corked?: unknown; properties?: Record<string, unknown> }) => {
    if (typeof entry?.index !== 'number') throw new Error('a sink input without an index');
    const property = (key: string) => (typeof entry.properties?.[key] === 'string' ? (entry.properties[key] as string) : undefined);
    return { index: entry.index, corked: entry.corked === true, name: property('application.name'), binary: property('application.process.binary') };
  });
}

/**
 * `pactl list sink-inputs` in the C locale: a `Sink Input #N` block per stream, `Corked: yes|no`,
 * and a `Properties:` list of `key = "value"` lines, where pactl escapes `"` as `\"` but not `\`
 * itself: the value runs to the line's last quote.
 */
export function sinkInputsFromText(text: string): SinkInput[] {
  const streams: SinkInput[] = [];
  for (const block of text.split(/^(?=Sink Input #)/m)) {
    const index = /^Sink Input #(\d+)/.exec(block);
    if (!index) continue;
    const properties = new Map<string, string>();
    const propertyLines = block.slice(Math.max(0, block.search(/^\s*Properties:\s*$/m)));
    for (const [, key, value] of propertyLines.matchAll(/^\s+([\w.-]+) = "(.*)"\s*$/gm)) properties.set(key!, value!.replaceAll('\\"', '"'));
    streams.push({ index: Number(index[1]), corked: /^\s*Corked: yes\s*$/m.test(block), name: properties.get('application.name'), binary: properties.get('application.process.binary') });
  }
  return streams;
}

function pactl(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('pactl', args, { env: { ...env, LC_ALL: 'C' }, timeout: PACTL_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`pactl ${args.join(' ')}: ${String(stderr).trim() || error.message}`));
      else resolve(stdout);
    });
  });
}

/** The streams playing now: pactl's JSON where it has it (pactl 16+), its text otherwise. */
export async function listSinkInputs(env: NodeJS.ProcessEnv): Promise<SinkInput[]> {
  try {
    return sinkInputsFromJson(await pactl(['-f', 'json', 'list', 'sink-inputs'], env));
  } catch {
    return sinkInputsFromText(await pactl(['list', 'sink-inputs'], env));
  }
}
