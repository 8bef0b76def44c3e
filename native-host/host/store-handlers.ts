import { ProtocolError, type ExportFormat, type ExportRequest, type ForgetRequest, type HandshakesRequest, type RequestId, type StatsRequest } from '../../src/protocol';
import { handshakeSource, type HandshakeSource } from '../../src/stats/handshake';
import { exportStats } from '../../src/stats/export-formats';
import { HandshakeStats, statsToJSON } from '../../src/stats/handshake-stats';
import { pageOriginOf } from '../store/record-codec';
import type { HandshakeQuery, HandshakeStore, PageSummary, StoredHandshake } from '../store/store-types';
import type { HostContext } from './host-context';

/** What each export format is, for the browser's download. */
export const EXPORT_MIME_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json',
  prom: 'text/plain; version=0.0.4; charset=utf-8',
};

/** `stats`: the aggregation of the stored handshakes that match. */
export async function handleStats(req: StatsRequest, ctx: HostContext): Promise<void> {
  const store = storeOf(ctx, req.id);
  const stats = await aggregate(store, { origin: req.origin, since: req.since, until: req.until }, req.source);
  ctx.send({ type: 'stats', id: req.id, storeHealth: store.health(), ...statsToJSON(stats) });
}

/** `export`: the stored handshakes (and, for json, page summaries) in a file format. */
export async function handleExport(req: ExportRequest, ctx: HostContext): Promise<void> {
  const store = storeOf(ctx, req.id);
  const query = { origin: req.origin, since: req.since, ...(req.source ? { source: req.source } : {}) };
  const stats = await aggregate(store, query, req.source);
  const pages: PageSummary[] = [];
  if (req.format === 'json') {
    for await (const p of store.pageSummaries({ since: req.since })) if (!req.origin || pageOriginOf(p.url) === req.origin) pages.push(p);
  }
  const data = exportStats(req.format, stats, pages, { query, exportedAt: new Date().toISOString() });
  ctx.send({ type: 'export', id: req.id, format: req.format, mimeType: EXPORT_MIME_TYPES[req.format], data });
}

/**
 * `handshakes`: the connections the user's browser opened for a page, stored beside the host's own
 * with source `browser`. The browser names no connection, so each gets its place in the message.
 */
export async function handleHandshakes(req: HandshakesRequest, ctx: HostContext): Promise<void> {
  const store = storeOf(ctx, req.id);
  const records: StoredHandshake[] = req.handshakes.map((h, i) => ({
    ...h,
    connectionId: i,
    remoteAddress: undefined,
    remotePort: undefined,
    localPort: undefined,
    tlsVersion: undefined,
    resumed: h.origin.startsWith('https:') ? undefined : false,
    source: 'browser',
    pageUrl: req.pageUrl,
  }));
  await store.addHandshakes(records);
  ctx.send({ type: 'recorded', id: req.id, recorded: records.length });
}

/**
 * `forget`: deletes everything about one origin, or (`all: true`) everything. Forgetting everything
 * also empties the host log (its error lines may name URLs), so nothing of the user's is left in
 * the data dir.
 */
export async function handleForget(req: ForgetRequest, ctx: HostContext): Promise<void> {
  const origin = 'origin' in req ? req.origin : undefined;
  const removed = await storeOf(ctx, req.id).forget(origin);
  if (origin === undefined) ctx.log.clear?.();
  ctx.log.info(`forgot ${removed} record(s)${origin === undefined ? '' : ' of one origin'}`);
  ctx.send({ type: 'forgotten', id: req.id, removed });
}

function storeOf(ctx: HostContext, id: RequestId): HandshakeStore {
  if (!ctx.store) {
    throw new ProtocolError('E_NO_STORE', 'this host runs without a handshake store (it could not open one at start; its log says why), so there is nothing to read or forget', id);
  }
  return ctx.store;
}

async function aggregate(store: HandshakeStore, query: HandshakeQuery, source?: HandshakeSource): Promise<HandshakeStats> {
  const stats = new HandshakeStats();
  for await (const r of store.handshakes(query)) if (source === undefined || handshakeSource(r) === source) stats.add(r);
  return stats;
}
