import { unlink } from 'node:fs/promises';
import type { DiffView } from '../../../shared/agent';
import { writeFileAtomically } from './atomicWrite';
import { encodeLike, loadEditableFile, MAX_EDIT_BYTES, sha256, type EditableFile } from './editableFile';
import { lineDiff } from './lineDiff';
import { applyReplacements, lineEndings, withLineEndings, type TextReplacement } from './textReplacements';

/** What an edit_file or write_file call asks for. */
export type EditRequest = { tool: 'edit_file'; edits: TextReplacement[] } | { tool: 'write_file'; content: string };

/** An edit worked out against the file as it is now, shown as a diff before anyone approves it. */
export interface PreparedEdit {
  tool: EditRequest['tool'];
  /** The file that changes (a symlink's target). */
  path: string;
  before: EditableFile;
  after: Buffer;
  diff: DiffView;
}

export type Prepared = { ok: true; edit: PreparedEdit } | { ok: false; message: string };

/** What an applied edit leaves to undo it with. */
export interface AppliedEdit {
  path: string;
  /** The previous bytes; undefined when the edit created the file. */
  previous: Buffer | undefined;
  sha256Before: string;
  sha256After: string;
}

export type Applied = { ok: true; applied: AppliedEdit } | { ok: false; message: string };

/**
 * The new content of `path` for the request, and its diff; or why the request cannot be made
 * (binary, too large, not UTF-8, text absent or ambiguous, nothing would change).
 */
export async function prepareEdit(path: string, request: EditRequest): Promise<Prepared> {
  const loaded = await loadEditableFile(path);
  if (!loaded.ok) return { ok: false, message: `Not changed: ${loaded.message}` };
  const before = loaded.file;
  let text: string;
  if (request.tool === 'edit_file') {
    if (!before.exists) return { ok: false, message: `Not changed: ${path} does not exist. Use write_file to create it.` };
    const replaced = applyReplacements(before.text, request.edits, path);
    if (!replaced.ok) return replaced;
    text = replaced.text;
  } else {
    // Overwriting keeps the file's line endings; a new file gets the text as given.
    text = before.exists ? withLineEndings(request.content, lineEndings(before.text)) : request.content;
  }
  const after = encodeLike(before, text);
  if (after.length > MAX_EDIT_BYTES) return { ok: false, message: `Not changed: the new content would be ${after.length} bytes, more than the ${MAX_EDIT_BYTES} bytes (1 MiB) the file tools write.` };
  if (before.exists && after.equals(before.bytes)) return { ok: false, message: `Not changed: the ${request.tool === 'edit_file' ? 'edits leave' : 'content is'} ${path} exactly as it is.` };
  return { ok: true, edit: { tool: request.tool, path: before.path, before, after, diff: await lineDiff(before.text, text) } };
}

/**
 * Writes a prepared edit, atomically and with the file's permission bits, if the file is
 * still what the diff was made from; otherwise nothing is written and the message says why.
 */
export async function applyEdit(edit: PreparedEdit): Promise<Applied> {
  const now = await loadEditableFile(edit.path);
  if (!now.ok) return { ok: false, message: `Not changed: ${now.message}` };
  if (now.file.exists !== edit.before.exists || now.file.sha256 !== edit.before.sha256) {
    return { ok: false, message: `Not changed: ${edit.path} changed after the diff was made (someone else wrote it); propose the edit again against its current content.` };
  }
  try {
    await writeFileAtomically(edit.path, edit.after, edit.before.mode);
  } catch (error) {
    return { ok: false, message: `Not changed: ${edit.path} could not be written (${error instanceof Error ? error.message : String(error)}).` };
  }
  return {
    ok: true,
    applied: {
      path: edit.path,
      previous: edit.before.exists ? edit.before.bytes : undefined,
      sha256Before: edit.before.sha256,
      sha256After: sha256(edit.after),
    },
  };
}

export type Undone = { restored: true; sha256Now: string } | { restored: false; message: string };

/**
 * Puts back what the file held before `applied`, when it still holds exactly what the edit
 * wrote; a file the edit created is removed. Anything else is left alone, and the message says why.
 */
export async function undoEdit(applied: AppliedEdit): Promise<Undone> {
  const now = await loadEditableFile(applied.path);
  if (!now.ok) return { restored: false, message: `Not undone: ${now.message}` };
  if (!now.file.exists) return { restored: false, message: `Not undone: ${applied.path} no longer exists.` };
  if (now.file.sha256 !== applied.sha256After) return { restored: false, message: `Not undone: ${applied.path} has changed since the edit; its current content is kept.` };
  try {
    if (applied.previous === undefined) {
      await unlink(applied.path);
      return { restored: true, sha256Now: sha256(Buffer.alloc(0)) };
    }
    // The mode it has now: the user may have changed it since, which undo does not revert.
    await writeFileAtomically(applied.path, applied.previous, now.file.mode);
  } catch (error) {
    return { restored: false, message: `Not undone: ${applied.path} could not be written (${error instanceof Error ? error.message : String(error)}).` };
  }
  return { restored: true, sha256Now: sha256(applied.previous) };
}
