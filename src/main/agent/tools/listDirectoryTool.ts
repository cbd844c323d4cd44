import type { Dirent } from 'node:fs';
import { lstat, readdir, readlink, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { plural } from '../../../shared/countWords';
import { formatBytes, formatCount } from '../../context/outputExcerpt';
import type { ToolDefinition } from '../backends/modelBackend';
import { stringArgument, type ImmediateTool } from './agentTool';
import { describeFsError, SPECIAL_FILE_NAMES, typeName } from './fileDescriptions';
import { resolveToolPath, shownPath, type FileToolContext } from './filePaths';

/** `list_directory`: a directory's entries for the model, read-only. */

/** Entries listed at most; the total is always stated. */
export const MAX_LIST_ENTRIES = 500;

export const listDirectoryInputSchema = z.strictObject({
  path: z.string().min(1).max(4096).default('.'),
});
export type ListDirectoryInput = z.output<typeof listDirectoryInputSchema>;

export const LIST_DIRECTORY_TOOL: ToolDefinition = {
  name: 'list_directory',
  description:
    "List a directory (read-only): one line per entry with its type (dir, file, link, fifo, socket, chardev, blockdev), size and name, directories first, then by name. " +
    `Hidden entries are included. At most ${MAX_LIST_ENTRIES} entries are listed; the total count is always given. ` +
    "Relative paths are resolved against the active pane's working directory; absolute and ~/ paths work too.",
  input_schema: {
    type: 'object',
    properties: {
      path: {
        type: 'string',
        minLength: 1,
        maxLength: 4096,
        default: '.',
        description: 'Directory path: relative to the pane cwd, absolute, or ~/… (default ".", the cwd itself).',
      },
    },
    additionalProperties: false,
  },
};

export const listDirectoryTool: ImmediateTool = {
  definition: LIST_DIRECTORY_TOOL,
  approval: 'none',
  run: async (input, context) => ({
    content: await runListDirectory(input, context),
    isError: false,
    summary: `listed ${stringArgument(input, 'path') ?? 'the current directory'}`,
  }),
};

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Runs `list_directory`; every failure is a message for the model, never a throw. */
export async function runListDirectory(input: unknown, context: FileToolContext): Promise<string> {
  const parsed = listDirectoryInputSchema.safeParse(input ?? {});
  if (!parsed.success) {
    return `list_directory: invalid input: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}. Give {"path": "…"}.`;
  }
  const { path } = parsed.data;
  const resolved = resolveToolPath(path, context);
  if (!resolved.ok) return resolved.message;
  const where = shownPath(path, resolved.path);
  const refusal = context.refuse?.(resolved.path);
  if (refusal) return `${where} may not be read by the agent: denied by ${refusal}.`;

  try {
    const info = await stat(resolved.path);
    if (info.isFile()) return `${where} is a file (${formatBytes(info.size)}), not a directory; use read_file to read it.`;
    if (!info.isDirectory()) return `${where} is ${SPECIAL_FILE_NAMES[typeName(info)] ?? 'not a directory'}, not a directory.`;
    const entries = await readdir(resolved.path, { withFileTypes: true });
    const counts = new Map<string, number>();
    for (const entry of entries) counts.set(typeName(entry), (counts.get(typeName(entry)) ?? 0) + 1);
    entries.sort((a, b) => Number(b.isDirectory()) - Number(a.isDirectory()) || compareNames(a.name, b.name));
    const listed = entries.slice(0, MAX_LIST_ENTRIES);
    const rows = await Promise.all(listed.map((entry) => describeEntry(resolved.path, entry)));

    const breakdown = [...counts.entries()]
      .sort((a, b) => compareNames(a[0], b[0]))
      .map(([type, n]) => `${formatCount(n)} ${type}`)
      .join(', ');
    const header =
      entries.length === 0
        ? `Directory: ${where} — empty.`
        : `Directory: ${where} — ${plural(entries.length, 'entry', 'entries')} (${breakdown})` +
          (listed.length < entries.length ? `; showing the first ${formatCount(listed.length)} (directories first, then by name).` : '; directories first, then by name.');
    if (entries.length === 0) return header;
    const table = rows.map((row) => `${row.type.padEnd(8)} ${row.size.padStart(9)}  ${row.name}`);
    if (listed.length < entries.length) table.push(`… [${formatCount(entries.length - listed.length)} more entries not listed]`);
    return [header, `${'type'.padEnd(8)} ${'size'.padStart(9)}  name`, ...table].join('\n');
  } catch (error) {
    return describeFsError(error, where, true);
  }
}

async function describeEntry(directory: string, entry: Dirent): Promise<{ type: string; size: string; name: string }> {
  const name = entry.name.replace(/[\x00-\x1f\x7f]/g, '?');
  const full = join(directory, entry.name);
  try {
    const info = await lstat(full);
    const type = typeName(info);
    if (type === 'dir') return { type, size: '-', name: `${name}/` };
    if (type === 'link') {
      const target = await readlink(full).catch(() => '?');
      return { type, size: '-', name: `${name} -> ${target.replace(/[\x00-\x1f\x7f]/g, '?')}` };
    }
    return { type, size: type === 'file' ? formatBytes(info.size) : '-', name };
  } catch {
    return { type: typeName(entry), size: '?', name };
  }
}
