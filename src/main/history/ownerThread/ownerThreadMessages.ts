import type { HistoryResult } from '../historyRecord';
import type { Migration } from '../migrations';
import type { OwnerAddress } from '../ownerLock';
import type { Operation } from '../ownerProtocol';
import type { RetentionSettings } from '../retention';

/** What the owner thread is started with (structured-cloned into it). */
export interface OwnerThreadData {
  file: string;
  address: OwnerAddress;
  retention?: RetentionSettings;
  migrations?: readonly Migration[];
}

/** The engine to the owner thread: a store call, or the end. */
export type ToOwnerThread = { kind: 'call'; id: number; op: Operation; args: unknown } | { kind: 'close' };

/** The owner thread to the engine. */
export type FromOwnerThread =
  /** It took the database (`owner`), or another live process has it, or the address cannot be used at all (`error`). */
  | { kind: 'elected'; owner: boolean; error?: string }
  | { kind: 'result'; id: number; result: HistoryResult<unknown> }
  /** Something for the engine log (the file was moved aside, retention failed …). */
  | { kind: 'report'; message: string };
