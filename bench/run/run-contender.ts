/** One load by one contender, measured the same way for all: the client's times plus the server's view. */
import { pathOf } from '../../src/core/url-parts';
import type { Link } from '../link/link-emulator';
import type { Origins } from '../origins/start-origins';
import { serverView } from './access-log-delta';
import { toBenchError } from '../cli/bench-run-error';
import { CONTENDER_SCHEME, CONTENDER_STRATEGY } from './bench-matrix';
import { loadWithChromium } from './chromium-contender';
import { loadWithGetlist } from './getlist-contender';
import type { ContenderName, GetlistContender, RunResult } from './results-schema';

export interface RunContext {
  link: Link;
  origins: Origins;
  cliPath: string;
  hostResolverRules: string;
  /** Requests a complete load makes (document included). */
  expectedRequests: number;
  timeoutMs: number;
}

const isChromium = (c: ContenderName): c is 'chromium-h1' | 'chromium-h2' => c.startsWith('chromium-');

/** Never throws: a failed load comes back with `error` and `errors: 1`. */
export async function runContender(ctx: RunContext, page: string, contender: ContenderName): Promise<RunResult> {
  const url = ctx.origins.pageUrl(page, CONTENDER_SCHEME[contender]);
  const before = ctx.origins.accessLog().length;
  const server = () => {
    // Chromium asks for /favicon.ico on its own: not part of the page.
    const entries = ctx.origins.accessLog().slice(before).filter((e) => !(isChromium(contender) && e.path === '/favicon.ico'));
    return serverView(entries);
  };
  try {
    if (isChromium(contender)) {
      const { network: t, resourceTiming: rt } = await loadWithChromium({
        clientNs: ctx.link.clientNs, url, hostResolverRules: ctx.hostResolverRules,
        spkiHashes: [ctx.origins.spkiHash, ctx.origins.caSpkiHash], timeoutMs: ctx.timeoutMs,
        expectedRequests: ctx.expectedRequests,
      });
      const s = server();
      const seen = new Set((rt?.urls ?? []).map((u) => pathOf(u) || u));
      return {
        totalMs: t.totalMs, meanTtfbMs: Number.isFinite(t.meanTtfbMs) ? t.meanTtfbMs : null,
        connectionsOpened: s.connectionsOpened, requestsPerConnection: s.requestsPerConnection,
        // Failed = answered with non-2xx, or never asked for; a missing Resource Timing entry is not a failure.
        errors: s.non2xx + Math.max(0, ctx.expectedRequests - (s.requests - s.non2xx)),
        serverRequests: s.requests, protocols: t.protocols.length > 0 ? t.protocols : (rt?.protocols ?? []),
        cdpRequests: t.requests,
        resourceTimingTotalMs: rt?.totalMs ?? null,
        missingTimingEntries: s.paths.filter((p) => !seen.has(p)),
      };
    }
    const g = await loadWithGetlist({ link: ctx.link, cliPath: ctx.cliPath, url, strategy: CONTENDER_STRATEGY[contender as GetlistContender], caPath: ctx.origins.caPath, timeoutMs: ctx.timeoutMs });
    const s = server();
    return {
      totalMs: g.totalMs, meanTtfbMs: Number.isFinite(g.meanTtfbMs) ? g.meanTtfbMs : null,
      connectionsOpened: s.connectionsOpened, requestsPerConnection: s.requestsPerConnection,
      errors: Number.isFinite(g.errors) ? g.errors : 0, clientConnections: g.connectionsOpened,
      serverRequests: s.requests, protocols: g.protocols,
    };
  } catch (err) {
    const s = server();
    return {
      totalMs: null, meanTtfbMs: null, connectionsOpened: s.connectionsOpened, requestsPerConnection: s.requestsPerConnection,
      errors: 1, serverRequests: s.requests, protocols: s.protocols, error: toBenchError(err),
    };
  }
}
