import type { RequestResult } from '../scheduler';
import type { PriorityClass } from '../core/priority';
import { roundMs } from './round';

/**
 * One request of a run: what `getlist load --json` prints, what a `replay-result` carries and what
 * the popup shows. Times are ms from the run's start (`t0`).
 *
 * "Not measured" is `null` everywhere (no status after a failure, no first byte, no connection),
 * never `undefined` or NaN, so a record reads back from JSON exactly as it was written.
 */
export interface RequestRecord {
  url: string;
  method: string;
  priority: PriorityClass;
  /** What kind of resource it was listed as (`stylesheet`, `main_frame`, …); null when not given. */
  resourceType: string | null;
  status: number | null;
  /** Body bytes received (of the final attempt), as they crossed the wire: still content-encoded. */
  bytes: number;
  /**
   * Those body bytes after undoing `Content-Encoding` (gzip, deflate, br, zstd where Node has it);
   * equal to `bytes` for a body sent unencoded (or in an encoding the host does not decode).
   */
  decodedBytes: number;
  connectionId: number | null;
  /** The final attempt went on a connection that had already carried a request. */
  reused: boolean;
  /** The final attempt was written while an earlier response on its connection was unfinished. */
  pipelined: boolean;
  attempts: number;
  /** ALPN protocol of the final attempt's connection (`h2`, `http/1.1`). */
  protocol: string | null;
  discoveredMs: number;
  sentMs: number | null;
  /** Time to first byte from when the request was known (discovered), not from when it was sent. */
  ttfbMs: number | null;
  doneMs: number;
  error: { code: string; message: string } | null;
  /**
   * Present only for a request sent from the page's learned list before parsing found it: `used`
   * when the page named it after all (the parse joined it), `unused` when it did not.
   */
  speculative?: 'used' | 'unused';
  /**
   * Present only when a response's `Content-Type` contradicted the request's kind (an image
   * answered with an HTML page): what it said and what the scheduler did about it. The request is
   * not failed for it (docs/scheduler.md).
   */
  contradiction?: string;
  /**
   * Present in a page load's records: the URL of the document or style sheet whose body named this
   * request (its parent in the page's dependency structure); null for the document itself.
   */
  foundBy?: string | null;
}

/**
 * A scheduler result as a record of a run that started at `t0` (on the scheduler's clock).
 * `decodedBytes` is the decoded size of its body when that was encoded; absent, it is `bytes`.
 */
export function toRequestRecord(r: RequestResult, t0: number, decodedBytes?: number): RequestRecord {
  const record: RequestRecord = {
    url: r.url,
    method: r.method,
    priority: r.priority,
    resourceType: r.resourceType ?? null,
    status: r.status ?? null,
    bytes: r.bytes,
    decodedBytes: decodedBytes ?? r.bytes,
    connectionId: r.connectionId ?? null,
    reused: r.reused,
    pipelined: r.pipelined,
    attempts: r.attempts,
    protocol: r.protocol ?? null,
    discoveredMs: roundMs(r.discoveredAt - t0),
    sentMs: r.sentAt === undefined ? null : roundMs(r.sentAt - t0),
    ttfbMs: r.firstByteAt === undefined ? null : roundMs(r.firstByteAt - r.discoveredAt),
    doneMs: roundMs(r.doneAt - t0),
    error: r.error ? { code: r.error.code, message: r.error.message } : null,
  };
  if (r.contradiction !== undefined) record.contradiction = r.contradiction;
  return record;
}
