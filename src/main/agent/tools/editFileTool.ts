import { z } from 'zod';
import type { FileEditTool } from './agentTool';

export const EditFileInputSchema = z.object({
  path: z.string().trim().min(1).max(4_096),
  edits: z
    .array(z.object({ old_text: z.string().max(500_000), new_text: z.string().max(500_000) }))
    .min(1)
    .max(50),
  purpose: z.string().max(2_000).default(''),
  paneId: z.number().int().nonnegative().optional(),
});

/**
 * `edit_file`: exact text replacements in one file. Each call is a plan step whose card shows
 * the diff; the gate judges the path (fileEdits/, ApprovalGate.decideEdit) and the model is
 * told whether the edit was applied, never the file's content.
 */
export const editFileTool: FileEditTool = {
  definition: {
    name: 'edit_file',
    description:
      'Change a UTF-8 text file by exact text replacement, after the user approves the diff (they may deny it). ' +
      'Each old_text must occur exactly once in the file as it is when the edit comes up (after the edits before it in the list): ' +
      'copy it with its whitespace and indentation, with enough surrounding lines to be unique. Line endings follow the file (LF in your text matches CRLF in the file). ' +
      'Several calls in one response are plan steps that run in order, each against the file as the steps before left it. ' +
      'The result says whether the edit was applied, or why not (text absent or ambiguous, binary or larger than 1 MiB, denied); it does not contain the file.',
    input_schema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: "The file: relative to the pane's working directory, absolute, or ~/…" },
        edits: {
          type: 'array',
          description: 'Replacements, applied in order.',
          items: {
            type: 'object',
            properties: {
              old_text: { type: 'string', description: 'Text that occurs exactly once in the file.' },
              new_text: { type: 'string', description: 'What replaces it (empty to delete it).' },
            },
            required: ['old_text', 'new_text'],
          },
        },
        purpose: { type: 'string', description: 'One short sentence: why this change.' },
        paneId: { type: 'integer', description: 'The pane whose working directory a relative path starts from; omit for the active pane.' },
      },
      required: ['path', 'edits'],
    },
  },
  approval: 'gate',
  steps: 'edit',

  propose(input) {
    const parsed = EditFileInputSchema.safeParse(input);
    if (!parsed.success) return { ok: false, refusal: `Not changed: the tool input was invalid (${issueText(parsed.error)}); "path" and "edits" (a list of {old_text, new_text}) are required.` };
    const { path, edits, purpose, paneId } = parsed.data;
    return { ok: true, step: { command: `edit_file ${path}`, purpose, paneId, edit: { path, request: { tool: 'edit_file', edits } } } };
  },
};

export function issueText(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'bad input';
  return issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message;
}
