import type { Viewport } from '../../src/discovery';
import type { OriginMemory } from '../../src/origins/origin-memory';
import type { Run } from '../../src/run';
import { preconnectCount, type Scheduler, type Strategy } from '../../src/scheduler';
import type { ResponseHooks } from '../transport/response-hooks';
import { DocumentWindows } from './document-windows';
import { PageDiscovery } from './page-discovery';
import { learnedRequests, originsUsed, preconnectLearned } from './page-memory';
import { runPage, type PageRunOptions } from './page-run';

export interface LoadPageOptions extends PageRunOptions {
  /** Redirects of the document followed at most. @default 5 */
  maxRedirects?: number;
  /** Decoded bytes of one stylesheet buffered to look for late-discovered URLs. @default 2 MiB */
  maxCssBytes?: number;
  /** Observes every response head and decoded body chunk (every attempt), e.g. to check bytes in tests. */
  observe?: Pick<ResponseHooks, 'onResponseHead' | 'onBody'>;
  /** The screen images, media queries and lazy loading are chosen for. @default 1280×800, DPR 1 */
  viewport?: Partial<Viewport>;
  /**
   * `loading=lazy` content guessed beyond the lazy-loading margin: `last` fetches it after
   * everything else was discovered, `skip` never fetches it (listed in `skipped`). @default 'last'
   */
  lazy?: 'last' | 'skip';
  /**
   * Warm the discovery code while the document is on its way (native-host/run/discovery-warm-up.ts);
   * `false` measures what a cold process pays. @default true
   */
  warmUp?: boolean;
}

/**
 * Loads one page the way getlist does without a browser: fetch the document, stream it (decoded)
 * into the HTML scanner, and enqueue each resource the moment the browser would know of it (GETALL
 * without the server's help); stylesheets go back to the scanner when complete, which fetches
 * their `url()`s for matching elements and their fonts for text set in them (late discovery).
 * Lazy content beyond the fold is fetched once all else is done (or never, `lazy: 'skip'`); mixed
 * content is upgraded or left out, as a browser does. Every call uses fresh connections (a new
 * transport and connector: no warm sockets, and no TLS session reuse across calls unless they
 * share `transport.tlsSessions`). With
 * `connections.preconnect`, connections to the page's learned origins open at t = 0, beside the
 * document's (src/scheduler/preconnect.ts). With `memory.speculativeList`, the page's learned
 * request list is asked for at t = 0 right behind the document (GETLIST, `learnedRequests`).
 * @throws LoadError with a stable code when the page could not be loaded (`E_LOAD_TIMEOUT` when
 * the document itself was unfinished after `timeoutMs`; other requests then fail alone).
 */
export async function loadPage(options: LoadPageOptions): Promise<Run> {
  const { url, strategy } = options;
  const discovery = new PageDiscovery({
    url,
    maxRedirects: options.maxRedirects ?? 5,
    maxCssBytes: options.maxCssBytes ?? 2 * 1024 * 1024,
    preconnectHints: strategy.connections.preconnect,
    earlyImports: strategy.discovery.earlyImports,
    ...(options.viewport ? { viewport: options.viewport } : {}),
    ...(options.lazy ? { lazy: options.lazy } : {}),
    warmUp: options.warmUp ?? true,
  });
  try {
    return await loadWith(discovery, options);
  } finally {
    discovery.stopWarmUp();
  }
}

async function loadWith(discovery: PageDiscovery, options: LoadPageOptions): Promise<Run> {
  const { url, strategy } = options;
  const windows = new DocumentWindows();
  const { run } = await runPage(options, {
    kind: 'load',
    start: (scheduler, memory) => {
      const speculative = memory ? learnedRequests(url, memory, strategy, options.allowUnsafePorts ?? false) : [];
      // The learned plan opens its connections before anything is queued, so their handshakes start in its order (plan-order.ts).
      const learned = strategy.connections.preconnect && preconnectLearned(scheduler, url, memory, strategy, speculative);
      discovery.start(scheduler, speculative);
      if (strategy.connections.preconnect && !learned) preconnectDocumentOrigin(scheduler, url, memory, strategy);
      windows.arm(scheduler, url, memory, strategy, learned || speculative.length > 0);
    },
    hooks: withObserver(discovery.hooks, options.observe),
    onTlsStart: (origin, rttMs) => {
      discovery.onTlsStart(origin, rttMs);
      windows.tlsStarted(origin, rttMs);
    },
    // Lazy content beyond the fold comes last, once everything else is done.
    onIdle: () => discovery.takeDeferred(),
    record: () => ({ skipped: discovery.skipped, unmatchedCssUrls: discovery.unmatchedCssUrls, speculative: discovery.speculativeOutcome(), parents: discovery.parents }),
    // Out of time: what finished is kept and the rest is marked E_LOAD_TIMEOUT; only an unfinished
    // document fails the load.
    check: (results) => discovery.checkDocument(results),
    learn: (results) => {
      // A speculative request the page never named says nothing of the origins it uses.
      const outcome = discovery.speculativeOutcome();
      return { origins: originsUsed(results.filter((r) => outcome.get(r.id) !== 'unused')), visit: discovery.visit(results) };
    },
  });
  return run;
}

/**
 * A first visit: the document's origin is the first the scanner will meet, and nearly every page
 * fetches more from it; its connections open beside the document's, sized as for a busy origin
 * (one while it may be h2), so the first subresources find them ready.
 */
function preconnectDocumentOrigin(scheduler: Scheduler, url: string, memory: OriginMemory | undefined, strategy: Strategy): void {
  const origin = new URL(url).origin;
  scheduler.preconnect(origin, preconnectCount(origin, strategy.connections.maxPerOrigin, memory?.get(origin), strategy));
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
