import { MAX_CONCURRENT_SCHEDULES, ProtocolError, type ScheduleRequest } from '../../src/protocol';
import { summarizeRun, type Run, type RunSummary } from '../../src/run';
import { strategy as strategyPreset } from '../../src/scheduler';
import { StoreOriginMemory } from '../store/store-origin-memory';
import type { PageSummary, StoredHandshake } from '../store/store-types';
import { CaFileError, readCaFile } from '../transport/ca-file';
import type { HostContext } from './host-context';
import { measureOrigins, originsOf } from './measure';
import { parseResolve } from '../../src/targets/host-mapping';
import { mappedLookup, privateNetworkCheck } from '../transport/private-network';
import { replayList } from '../run/replay';

/**
 * `schedule`: measure the page's origins, or replay its list with each strategy. At most
 * `MAX_CONCURRENT_SCHEDULES` run at once; the count is taken before any per-request work.
 */
export async function handleSchedule(req: ScheduleRequest, ctx: HostContext): Promise<void> {
  if (ctx.running >= MAX_CONCURRENT_SCHEDULES) {
    throw new ProtocolError('E_BUSY', `${ctx.running} schedules are already running (at most ${MAX_CONCURRENT_SCHEDULES}); send this page again when one has answered`, req.id);
  }
  ctx.running += 1;
  try {
    if (req.mode === 'replay') await replay(req, ctx);
    else await measure(req, ctx);
  } finally {
    ctx.running -= 1;
  }
}

async function measure(req: ScheduleRequest, ctx: HostContext): Promise<void> {
  const origins = originsOf(req.documentUrl, req.requests.map((r) => r.url));
  const addressCheck = await privateNetworkCheck(req.documentUrl, req.allowPrivateNetwork ?? false);
  const m = await measureOrigins(origins, { connector: ctx.connector, warm: ctx.warm, nextConnectionId: () => ctx.nextConnectionId(), signal: ctx.signal, ...(addressCheck ? { addressCheck } : {}) });
  if (ctx.signal.aborted) return;
  await record(ctx, m.handshakes.map((h) => ({ ...h, source: 'measure', pageUrl: req.documentUrl })), []);
  ctx.send({ type: 'measured', id: req.id, pageId: req.pageId, handshakes: m.handshakes, warm: m.warm, failed: m.failed, ...(ctx.store ? { storeHealth: ctx.store.health() } : {}) });
}

async function replay(req: ScheduleRequest, ctx: HostContext): Promise<void> {
  const summaries: RunSummary[] = [];
  const hostMappings = req.hostMappings?.map(parseResolve);
  const addressCheck = await privateNetworkCheck(req.documentUrl, req.allowPrivateNetwork ?? false, hostMappings && mappedLookup(req.documentUrl, hostMappings));
  const ca = req.caFile === undefined ? ctx.replay.transport : { ...ctx.replay.transport, ca: await trustedCa(req.caFile, req.id) };
  const base = hostMappings ? { ...ca, hostMappings } : ca;
  const transport = addressCheck ? { ...base, addressCheck } : base;
  for (const name of req.strategies ?? []) {
    const strategy = strategyPreset(name);
    const memory = strategy.memory ? await storeMemory(req, ctx) : undefined;
    const run = await replayList({
      documentUrl: req.documentUrl,
      items: req.requests,
      strategy,
      signal: ctx.signal,
      ...(memory ? { memory } : {}),
      now: ctx.now,
      ...ctx.replay,
      ...(transport ? { transport } : {}),
    });
    ctx.send({ type: 'replay-result', id: req.id, pageId: req.pageId, strategy: run.strategy, requests: run.requests, startedAt: run.startedAt, handshakes: run.handshakes });
    const summary = summarizeRun(run);
    summaries.push(summary);
    await record(
      ctx,
      run.handshakes.map((h) => ({ ...h, source: 'replay', pageUrl: req.documentUrl })),
      [pageSummary(req, run, summary)],
    );
  }
  ctx.send({ type: 'replay-summary', id: req.id, pageId: req.pageId, summaries });
}

/**
 * The store's origin memory for one replay of `req`'s page: the page's learned origin list and the
 * facts of every origin it and the request list name, read afresh for each replay (another host or
 * `getlist load --record` may have learned more meanwhile). No store, or a store that cannot be
 * read: no memory (a first visit), logged, never a failed replay.
 */
async function storeMemory(req: ScheduleRequest, ctx: HostContext): Promise<StoreOriginMemory | undefined> {
  if (!ctx.store) return undefined;
  try {
    const origins = originsOf(req.documentUrl, req.requests.map((r) => r.url));
    return await StoreOriginMemory.open(ctx.store, { pages: [req.documentUrl], origins }, { onError: (err) => ctx.log.error('could not store origin facts', err) });
  } catch (err) {
    ctx.log.error('could not read origin memory; replaying as a first visit', err);
    return undefined;
  }
}

/** The user's CA file as `ca`, or the replay fails with `E_CA_FILE` before anything is fetched. */
async function trustedCa(path: string, id: ScheduleRequest['id']): Promise<string> {
  try {
    return await readCaFile(path);
  } catch (err) {
    if (err instanceof CaFileError) throw new ProtocolError('E_CA_FILE', err.message, id);
    throw err;
  }
}

function pageSummary(req: ScheduleRequest, run: Run, summary: RunSummary): PageSummary {
  return { pageId: req.pageId, url: req.documentUrl, mode: 'replay', at: run.startedAt, ...summary };
}

/**
 * Hands results to the store when there is one (accepting is in memory: it never waits for the
 * disk). A store failure is logged, not thrown: a broken store must not break measuring; the
 * browser learns of it from the `storeHealth` the replies carry.
 */
async function record(ctx: HostContext, handshakes: StoredHandshake[], pages: PageSummary[]): Promise<void> {
  if (!ctx.store) return;
  try {
    if (handshakes.length > 0) await ctx.store.addHandshakes(handshakes);
    if (pages.length > 0) await ctx.store.addPageSummaries(pages);
  } catch (err) {
    ctx.log.error('could not store results', err);
  }
}
