import type { DispatchState } from './connection-state';
import { toErrorInfo, type SchedulerError } from './errors';
import type { RequestResult, ScheduledRequest } from './request';

/** The public outcome of a request, from its final attempt (if it got one). */
export function toResult(req: ScheduledRequest, d: DispatchState | undefined, bytes: number, doneAt: number, error: SchedulerError | undefined): RequestResult {
  const result: RequestResult = {
    id: req.id,
    url: req.url,
    method: req.method,
    priority: req.priority,
    origin: req.origin,
    resourceType: req.resourceType,
    discoveredAt: req.discoveredAt,
    queuedAt: req.queuedAt,
    sentAt: d?.sentAt,
    firstByteAt: d?.firstByteAt,
    doneAt,
    status: d?.status,
    bytes,
    connectionId: d?.conn.id,
    reused: d?.reused ?? false,
    pipelined: d?.pipelined ?? false,
    attempts: req.attempts,
    protocol: d?.conn.protocol,
    error: error ? toErrorInfo(error) : undefined,
  };
  // Assigned, not spread into the literal: this runs once per request, and a spread copies.
  if (d?.earlyHints) result.earlyHints = d.earlyHints;
  if (req.contradiction !== undefined) result.contradiction = req.contradiction;
  return result;
}
