import { z } from 'zod';
import { MAX_EDIT_BYTES } from '../fileEdits/editableFile';
import type { FileEditTool } from './agentTool';
import { issueText } from './editFileTool';

export const WriteFileInputSchema = z.object({
  path: z.string().trim().min(1).max(4_096),
  content: z.string().max(MAX_EDIT_BYTES),
  purpose: z.string().max(2_000).default(''),
  paneId: z.number().int().nonnegative().optional(),
});

/** `write_file`: create a text file, or replace all of one. A plan step with a diff card, like edit_file. */
export const writeFileTool: FileEditTool = {
  definition: {
    name: 'write_file',
    description:
      'Create a UTF-8 text file, or replace the whole content of one, after the user approves the diff (they may deny it). ' +
      'Prefer edit_file for changes to an existing file. The folder must exist. An existing file keeps its permissions and line endings. ' +
      'The result says whether the file was written, or why not; it does not contain the file.',
    input_schema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: "The file: relative to the pane's working directory, absolute, or ~/…" },
        content: { type: 'string', description: 'The whole new content of the file.' },
        purpose: { type: 'string', description: 'One short sentence: why this file.' },
        paneId: { type: 'integer', description: 'The pane whose working directory a relative path starts from; omit for the active pane.' },
      },
      required: ['path', 'content'],
    },
  },
  approval: 'gate',
  steps: 'edit',

  propose(input) {
    const parsed = WriteFileInputSchema.safeParse(input);
    if (!parsed.success) return { ok: false, refusal: `Not written: the tool input was invalid (${issueText(parsed.error)}); "path" and "content" are required.` };
    const { path, content, purpose, paneId } = parsed.data;
    return { ok: true, step: { command: `write_file ${path}`, purpose, paneId, edit: { path, request: { tool: 'write_file', content } } } };
  },
};
