import type { Run } from '../../src/run';
import type { Strategy } from '../../src/scheduler';
import { runSession, type RunTransportOptions } from '../run/run-session';
import { LoadError } from './load-errors';
import { PageDiscovery } from './page-discovery';

export interface LoadPageOptions {
  url: string;
  strategy: Strategy;
  /** TLS trust, timeouts and test hooks for the transport. */
  transport?: RunTransportOptions;
  /** Redirects of the document followed at most. @default 5 */
  maxRedirects?: number;
  /** The whole load is abandoned after this long. @default 120000 */
  timeoutMs?: number;
  /** Bytes of one stylesheet buffered to look for late-discovered URLs. @default 2 MiB */
  maxCssBytes?: number;
  /** Response sizes learned on earlier loads (shared across runs to model a returning visitor). */
  sizeHints?: Map<string, number>;
  now?: () => number;
}

/**
 * Loads one page the way getlist does without a browser: fetch the document, stream it into the
 * HTML scanner, and enqueue each inlined resource the moment its tag is parsed (GETALL without the
 * server's help); stylesheets are scanned when complete for `url()` / `@import` (late discovery).
 * Every call uses fresh connections (a new transport and connector: no warm sockets, no TLS
 * session reuse across calls).
 * @throws LoadError with a stable code when the page could not be loaded (`E_LOAD_TIMEOUT` after
 * `timeoutMs`).
 */
export async function loadPage(options: LoadPageOptions): Promise<Run> {
  const discovery = new PageDiscovery({
    url: options.url,
    maxRedirects: options.maxRedirects ?? 5,
    maxCssBytes: options.maxCssBytes ?? 2 * 1024 * 1024,
  });
  const timeoutMs = options.timeoutMs ?? 120_000;
  const { ended, run, results } = await runSession(
    {
      url: options.url,
      strategy: options.strategy,
      hooks: discovery.hooks,
      timeoutMs,
      transport: options.transport,
      sizeHints: options.sizeHints,
      now: options.now,
    },
    (scheduler) => discovery.start(scheduler),
  );
  if (ended === 'timeout') {
    throw new LoadError('E_LOAD_TIMEOUT', `loading ${options.url} with ${options.strategy.name} took longer than ${timeoutMs} ms`);
  }
  discovery.checkDocument(results);
  return run;
}
