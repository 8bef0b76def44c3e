import { MAX_MESSAGE_BYTES, MAX_REQUESTS_PER_SCHEDULE, PROTOCOL_VERSION, type HostRequest, type HostRequestType } from '../../src/protocol';
import { STRATEGY_NAMES } from '../../src/scheduler';
import type { HostContext } from './host-context';
import { handleSchedule } from './schedule-handler';
import { handleDiscover } from './discover-handler';
import { handleExport, handleForget, handleHandshakes, handleStats } from './store-handlers';

type Handler<T extends HostRequestType> = (req: Extract<HostRequest, { type: T }>, ctx: HostContext) => void | Promise<void>;

/**
 * One handler per request type. A handler answers through `ctx.send` (a replay answers several
 * times) and fails by throwing: a `ProtocolError` becomes that error reply, anything else
 * `E_INTERNAL`.
 */
export const HANDLERS: { [T in HostRequestType]: Handler<T> } = {
  hello: (req, ctx) =>
    ctx.send({
      type: 'hello',
      id: req.id,
      hostVersion: ctx.hostVersion,
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {
        strategies: [...STRATEGY_NAMES],
        http2: true,
        store: ctx.store?.location ?? null,
        ...(ctx.store ? { storeHealth: ctx.store.health() } : {}),
        maxRequestsPerSchedule: MAX_REQUESTS_PER_SCHEDULE,
        maxMessageBytes: MAX_MESSAGE_BYTES,
      },
      ...(ctx.cliCommand ? { cliCommand: ctx.cliCommand } : {}),
    }),
  ping: (req, ctx) => ctx.send({ type: 'pong', id: req.id }),
  schedule: handleSchedule,
  discover: handleDiscover,
  handshakes: handleHandshakes,
  stats: handleStats,
  export: handleExport,
  forget: handleForget,
};

export function dispatch(req: HostRequest, ctx: HostContext): void | Promise<void> {
  // HANDLERS[req.type] takes exactly this request's type; TypeScript cannot correlate the two.
  const handler = HANDLERS[req.type] as (req: HostRequest, ctx: HostContext) => void | Promise<void>;
  return handler(req, ctx);
}
