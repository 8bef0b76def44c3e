import { MAX_CONCURRENT_SCHEDULES, ProtocolError, type DiscoverRequest } from '../../src/protocol';
import { discoverPage } from '../run/discover-page';
import { LoadError } from '../run/load-errors';
import { privateNetworkCheck } from '../transport/private-network';
import type { HostContext } from './host-context';

/**
 * `discover`: the page's document and style sheets, fetched without cookies or credentials through
 * the connection gate — bad ports refused, and (unless the user allowed it) no address more
 * private than the page's own (Private Network Access) — and what they name. Counts against the
 * schedules running at once. A page that cannot be loaded is `E_PAGE_UNAVAILABLE`.
 */
export async function handleDiscover(req: DiscoverRequest, ctx: HostContext): Promise<void> {
  if (ctx.running >= MAX_CONCURRENT_SCHEDULES) {
    throw new ProtocolError('E_BUSY', `${ctx.running} runs are already going (at most ${MAX_CONCURRENT_SCHEDULES}); ask again when one has answered`, req.id);
  }
  ctx.running += 1;
  try {
    const addressCheck = await privateNetworkCheck(req.url, req.allowPrivateNetwork ?? false);
    const base = ctx.replay.transport;
    const transport = addressCheck ? { ...base, addressCheck } : base;
    const page = await discoverPage({ url: req.url, timeoutMs: ctx.replay.timeoutMs, signal: ctx.signal, now: ctx.now, ...(transport ? { transport } : {}) }).catch((err: unknown) => {
      if (err instanceof LoadError) throw new ProtocolError('E_PAGE_UNAVAILABLE', err.message, req.id);
      throw err;
    });
    if (ctx.signal.aborted) return;
    ctx.send({ type: 'discovered', id: req.id, url: page.url, resources: page.resources });
  } finally {
    ctx.running -= 1;
  }
}
