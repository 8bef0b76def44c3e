import type { Viewport } from '../../src/discovery';
import { speculativeList, type ListedResource } from '../../src/origins/page-list';
import type { Run } from '../../src/run';
import { preconnectCount, preconnectPlan, SchedulerError, type OriginBudgets, type RequestResult, type Scheduler, type Strategy } from '../../src/scheduler';
import type { OriginMemory } from '../../src/origins/origin-memory';
import type { PageOrigin } from '../../src/origins/origin-facts';
import { isBadPort, portOf } from '../../src/targets';
import type { ResponseHooks } from '../transport/response-hooks';
import { runSession, type RunTransportOptions } from './run-session';
import { PageDiscovery } from './page-discovery';

export interface LoadPageOptions {
  url: string;
  strategy: Strategy;
  /** TLS trust, timeouts, the user agent, host mappings and test hooks for the transport. */
  transport?: RunTransportOptions;
  /** Connect to the Fetch standard's bad ports too (`--allow-unsafe-ports`). @default false */
  allowUnsafePorts?: boolean;
  /** Redirects of the document followed at most. @default 5 */
  maxRedirects?: number;
  /**
   * The whole load stops after this long: what finished is returned, the rest is marked
   * `E_LOAD_TIMEOUT`; only a document that did not finish makes it an error. @default 120000
   */
  timeoutMs?: number;
  /** Decoded bytes of one stylesheet buffered to look for late-discovered URLs. @default 2 MiB */
  maxCssBytes?: number;
  /** Observes every response head and decoded body chunk (every attempt), e.g. to check bytes in tests. */
  observe?: Pick<ResponseHooks, 'onResponseHead' | 'onBody'>;
  /** Per-origin request budgets learned on earlier loads (request-budget.ts). @default the origin memory's, when `memory` is used; else learned afresh */
  budgets?: OriginBudgets;
  /** Response sizes learned on earlier loads (shared across runs to model a returning visitor). */
  sizeHints?: Map<string, number>;
  /**
   * Origin memory (a returning visitor): read for the page's learned origin list and each origin's
   * facts, and written with what this load learned. Used only by strategies with `useOriginMemory`.
   */
  memory?: OriginMemory;
  /** The screen images, media queries and lazy loading are chosen for. @default 1280×800, DPR 1 */
  viewport?: Partial<Viewport>;
  /**
   * `loading=lazy` content guessed beyond the lazy-loading margin: `last` fetches it after
   * everything else was discovered, `skip` never fetches it (listed in `skipped`). @default 'last'
   */
  lazy?: 'last' | 'skip';
  now?: () => number;
}

/**
 * Loads one page the way getlist does without a browser: fetch the document, stream it (decoded)
 * into the HTML scanner, and enqueue each resource the moment the browser would know of it (GETALL
 * without the server's help); stylesheets go back to the scanner when complete, which fetches
 * their `url()`s for matching elements and their fonts for text set in them (late discovery).
 * Lazy content beyond the fold is fetched once all else is done (or never, `lazy: 'skip'`); mixed
 * content is upgraded or left out, as a browser does. Every call uses fresh connections (a new
 * transport and connector: no warm sockets, no TLS session reuse across calls). With
 * `strategy.preconnect`, connections to the page's learned origins open at t = 0, beside the
 * document's (src/scheduler/preconnect.ts). With `strategy.speculativeList`, the page's learned
 * request list is asked for at t = 0 right behind the document (GETLIST, `learnedRequests`).
 * @throws LoadError with a stable code when the page could not be loaded (`E_LOAD_TIMEOUT` when
 * the document itself was unfinished after `timeoutMs`; other requests then fail alone).
 */
export async function loadPage(options: LoadPageOptions): Promise<Run> {
  const { strategy } = options;
  const memory = strategy.useOriginMemory ? options.memory : undefined;
  const discovery = new PageDiscovery({
    url: options.url,
    maxRedirects: options.maxRedirects ?? 5,
    maxCssBytes: options.maxCssBytes ?? 2 * 1024 * 1024,
    preconnectHints: strategy.preconnect,
    earlyImports: strategy.earlyImports,
    ...(options.viewport ? { viewport: options.viewport } : {}),
    ...(options.lazy ? { lazy: options.lazy } : {}),
  });
  const timeoutMs = options.timeoutMs ?? 120_000;
  const speculative = memory && strategy.speculativeList ? learnedRequests(options.url, memory, strategy, options.allowUnsafePorts ?? false) : [];
  const start = (scheduler: Scheduler): void => {
    discovery.start(scheduler, speculative);
    if (!strategy.preconnect) return;
    const plan = memory ? preconnectPlan(options.url, memory, strategy) : [];
    if (plan.length > 0) {
      for (const t of plan) scheduler.preconnect(t.origin, t.connections);
      return;
    }
    // First visit: the document's origin is the first the scanner will meet, and nearly every page
    // fetches more from it; its connections open beside the document's, sized as for a busy origin
    // (one while it may be h2), so the first subresources find them ready.
    const origin = new URL(options.url).origin;
    scheduler.preconnect(origin, preconnectCount(origin, strategy.maxConnectionsPerOrigin, memory?.get(origin), strategy));
  };
  const { run, results } = await runSession(
    {
      url: options.url,
      strategy,
      hooks: withObserver(discovery.hooks, options.observe),
      timeoutMs,
      timeoutError: () => new SchedulerError('E_LOAD_TIMEOUT', `loading ${options.url} with ${strategy.name}: still unfinished when the load's ${timeoutMs} ms ran out (--timeout)`),
      transport: options.transport,
      sizeHints: options.sizeHints,
      memory,
      budgets: options.budgets,
      allowUnsafePorts: options.allowUnsafePorts,
      // Lazy content beyond the fold comes last, once everything else is done.
      onIdle: () => discovery.takeDeferred(),
      record: () => ({ skipped: discovery.skipped, unmatchedCssUrls: discovery.unmatchedCssUrls, speculative: discovery.speculativeOutcome() }),
      now: options.now,
    },
    start,
  );
  // Out of time: what finished is kept and the rest is marked E_LOAD_TIMEOUT; only an unfinished
  // document fails the load (checkDocument).
  discovery.checkDocument(results);
  if (memory) {
    const outcome = discovery.speculativeOutcome();
    memory.putPageOrigins(options.url, originsUsed(results.filter((r) => outcome.get(r.id) !== 'unused')), discovery.visit(results));
  }
  return run;
}

/**
 * What a returning visit asks for before parsing (page-list.ts `speculativeList`): the page's
 * learned list under the strategy's byte cap, without URLs the load may not fetch (a bad port,
 * unless `--allow-unsafe-ports`). The connection gate (connection-gate.ts: bad ports, Private
 * Network Access) applies to these requests as to any.
 */
export function learnedRequests(pageUrl: string, memory: OriginMemory, strategy: Strategy, allowUnsafePorts: boolean): ListedResource[] {
  const list = memory.pageList(pageUrl);
  if (!list) return [];
  return speculativeList(list.resources, { loads: list.loads, maxBytes: strategy.maxSpeculativeBytes, refuse: (url) => !allowUnsafePorts && isBadPort(portOf(new URL(url))) });
}

/** Requests per origin of a load, the answered ones only (a failed origin is not worth a preconnect). */
export function originsUsed(results: readonly RequestResult[]): PageOrigin[] {
  const counts = new Map<string, number>();
  for (const r of results) if (!r.error) counts.set(r.origin, (counts.get(r.origin) ?? 0) + 1);
  return [...counts].map(([origin, requests]) => ({ origin, requests }));
}

/** `observe` sees every response head and (decoded) body chunk before the page's own hooks do. */
function withObserver(hooks: ResponseHooks, observe: LoadPageOptions['observe']): ResponseHooks {
  if (!observe) return hooks;
  return {
    ...hooks,
    onResponseHead: (d, status, headers) => {
      observe.onResponseHead?.(d, status, headers);
      hooks.onResponseHead?.(d, status, headers);
    },
    onBody: (d, chunk) => {
      observe.onBody?.(d, chunk);
      hooks.onBody?.(d, chunk);
    },
  };
}
