import { readFileSync, statSync } from 'node:fs';
import { parse } from 'smol-toml';
import { describeIssues, describeTomlError } from '../../settings/validationMessages';
import { narrowingOnly } from './narrowingPolicy';
import { PolicySchema, type Policy } from './policySchema';

/** One policy file as the gate uses it: its rules, or why they could not be read. */
export interface PolicyLayer {
  /** The file, as shown in rules ("policy /etc/tandem/policy.toml: …"). */
  file: string;
  /** run: a `tandem agent` run's own policy, which only narrows (narrowingPolicy.ts). */
  kind: 'system' | 'user' | 'run';
  policy?: Policy;
  /** Settings of a run's policy that were not used because they could only allow more. */
  ignored?: string[];
  /** The file exists but cannot be used: everything asks (the strictest default). */
  error?: string;
}

export const SYSTEM_POLICY_FILE = '/etc/tandem/policy.toml';

/**
 * Reads the policy layers — the system file first, which user files cannot loosen, then the
 * user's — and re-reads a file only when its size or modification time changed, so the gate
 * can ask for the current policy before every decision without touching the disk much.
 */
export class PolicyFiles {
  private readonly cache = new Map<string, { stamp: string; layer: PolicyLayer }>();

  constructor(readonly files: readonly { file: string; kind: PolicyLayer['kind'] }[]) {}

  /** The layers that exist, in order (system first). */
  layers(): PolicyLayer[] {
    const layers: PolicyLayer[] = [];
    for (const { file, kind } of this.files) {
      const layer = this.read(file, kind);
      if (layer) layers.push(layer);
    }
    return layers;
  }

  /** Problems to show the user: files that exist but could not be used. */
  problems(): string[] {
    return this.layers().flatMap((layer) => (layer.error ? [layer.error] : []));
  }

  private read(file: string, kind: PolicyLayer['kind']): PolicyLayer | undefined {
    let stamp: string;
    try {
      const stat = statSync(file);
      stamp = `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        this.cache.delete(file);
        return undefined;
      }
      return { file, kind, error: `${file} could not be read (${(error as Error).message}); asking for everything` };
    }
    const cached = this.cache.get(file);
    if (cached?.stamp === stamp) return cached.layer;
    const layer = parsePolicyFile(file, kind);
    this.cache.set(file, { stamp, layer });
    return layer;
  }
}

export function parsePolicyFile(file: string, kind: PolicyLayer['kind']): PolicyLayer {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return { file, kind, error: `${file} could not be read (${(error as Error).message}); asking for everything` };
  }
  return parsePolicyText(text, file, kind);
}

export function parsePolicyText(text: string, file: string, kind: PolicyLayer['kind']): PolicyLayer {
  let data: unknown;
  try {
    data = parse(text);
  } catch (error) {
    return { file, kind, error: `${file} is ${describeTomlError(error, text)}; asking for everything` };
  }
  const result = PolicySchema.safeParse(data);
  if (!result.success) return { file, kind, error: `${file}: ${describeIssues(result.error)}; asking for everything` };
  if (kind === 'run') {
    const { policy, ignored } = narrowingOnly(result.data);
    return { file, kind, policy, ...(ignored.length ? { ignored } : {}) };
  }
  return { file, kind, policy: result.data };
}
