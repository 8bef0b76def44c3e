import { CodedError } from '../../src/core/coded-error';

/**
 * Why the store could not do something. `code` is stable: callers (the CLI, the host's message
 * handlers) match on it, and the message names the directory or record involved.
 *
 * User-fixable: E_DATA_DIR (the data dir cannot be created or is not a directory), E_STORE_FULL
 * (the disk or quota is full: records wait in memory, bounded, and are written once space
 * returns), E_STORE_VERSION (written by a newer getlist), E_STORE_LOCKED (a legacy LevelDB store
 * is held by an older getlist while it would be migrated).
 * Environment or bug: E_STORE_OPEN, E_STORE_WRITE, E_STORE_READ, E_STORE_CLOSED, E_STORE_RECORD
 * (a caller handed over an invalid record), E_STORE_QUERY, E_STORE_OPTIONS.
 */
export type StoreErrorCode =
  | 'E_DATA_DIR'
  | 'E_STORE_OPEN'
  | 'E_STORE_LOCKED'
  | 'E_STORE_VERSION'
  | 'E_STORE_WRITE'
  | 'E_STORE_FULL'
  | 'E_STORE_READ'
  | 'E_STORE_CLOSED'
  | 'E_STORE_RECORD'
  | 'E_STORE_QUERY'
  | 'E_STORE_OPTIONS';

export class StoreError extends CodedError<StoreErrorCode> {
  override readonly name = 'StoreError';
}

/** `code` of a Node, lmdb or classic-level error (classic-level nests the real reason in `cause`). */
export function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The errno of an lmdb error (lmdb reports errno as a number in `code`: 28 = ENOSPC). */
export function errnoOf(err: unknown): number | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}

/** One line describing an underlying error, for messages: `LEVEL_LOCKED: IO error: lock …`. */
export function describeCause(err: unknown): string {
  const inner = (err as { cause?: unknown } | null)?.cause ?? err;
  const code = errorCode(inner);
  const message = inner instanceof Error ? inner.message : String(inner);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}
