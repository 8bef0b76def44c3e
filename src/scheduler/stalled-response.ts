import type { DispatchState } from './connection-state';
import { SchedulerError } from './errors';
import type { SchedulerContext, SchedulerParts } from './scheduler-parts';

/**
 * An HTTP/1.1 response that stalls (the transport saw its connection make no progress for a few
 * round trips, native-host/transport/stall-watch.ts `stallAfterMs`: a slow-loris head or body, a
 * `Content-Length` longer than what is sent, an endless chunked body) costs only itself. Responses come in request order (RFC 9112 §9.3.2), so every
 * request written behind it would wait for all of it, and be lost with it when its own timeouts
 * end it. So:
 *
 * - the connection takes nothing more (`draining`) and no longer counts toward its origin's
 *   connection limit (`stalled`, dispatch-policy.ts `connectionsToOpen`), so what waits in the
 *   queue gets a connection of its own even under a one-connection strategy;
 * - each request written behind it is abandoned there (its response, if it ever comes, is read
 *   and dropped by the transport) and sent again, as a retry that uses no attempt: it was never
 *   answered. A request already written `MAX_SENDS` times fails instead.
 *
 * The stalled request itself is left to its own timeouts (`E_RESPONSE_STALLED`,
 * `E_REQUEST_TIMEOUT`), which a short load budget shortens (docs/scheduler.md, "Timeouts").
 */
export function stalled(d: DispatchState, ctx: SchedulerContext, parts: SchedulerParts): void {
  const c = d.conn;
  if (c.protocol !== 'http/1.1' || c.state !== 'ready' || c.stalled) return;
  c.stalled = true;
  c.draining = true;
  const o = c.origin;
  const behind = c.outstanding.slice(c.outstanding.indexOf(d) + 1);
  for (const b of behind) {
    ctx.transport.abandon(b.id);
    parts.dispatching.settleDispatch(b);
    parts.dispatching.sendAgain(b, new SchedulerError('E_CONNECTION_LOST', `${b.request.url} was written ${b.request.attempts} times, each behind a stalled response`));
  }
  parts.dispatching.markDirty(o);
}
