import type { HistoryDatabase } from './historyDatabase';
import { describeZodError, forgetRequestSchema, LIMITS, neighboursRequestSchema, searchQuerySchema, type HistoryResult } from './historyRecord';
import type { Operation } from './ownerProtocol';

/**
 * Runs one store operation on the owner's database, from this process or from a client's line.
 * Arguments are checked here, so a bad request gets a clear error and never throws.
 */
export function runOperation(db: HistoryDatabase, op: Operation, args: unknown): HistoryResult<unknown> {
  try {
    switch (op) {
      case 'record': {
        if (!Array.isArray(args)) return { ok: false, error: 'record needs an array of block records' };
        if (args.length > LIMITS.batchRecords) return { ok: false, error: `record takes at most ${LIMITS.batchRecords} records at once; got ${args.length}` };
        return { ok: true, value: db.record(args) };
      }
      case 'search': {
        const query = searchQuerySchema.safeParse(args ?? {});
        return query.success ? { ok: true, value: db.search(query.data) } : { ok: false, error: `bad search: ${describeZodError(query.error)}` };
      }
      case 'neighbours': {
        const request = neighboursRequestSchema.safeParse(args);
        return request.success ? { ok: true, value: db.neighbours(request.data.id, request.data.count) } : { ok: false, error: `bad neighbours request: ${describeZodError(request.error)}` };
      }
      case 'forget': {
        const request = forgetRequestSchema.safeParse(args);
        return request.success ? { ok: true, value: db.forget(request.data) } : { ok: false, error: `bad forget request: ${describeZodError(request.error)}` };
      }
      case 'stats':
        return { ok: true, value: db.stats() };
    }
  } catch (error) {
    return { ok: false, error: `history ${op} failed: ${(error as Error).message}` };
  }
}
