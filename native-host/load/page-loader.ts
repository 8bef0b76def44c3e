import { createHtmlScanner, extractCssUrls, type HtmlScanner } from '../../src/discovery';
import { Scheduler, SchedulerError, type Dispatch, type PriorityClass, type RequestResult, type Strategy } from '../../src/scheduler';
import type { OriginBudgets } from '../../src/scheduler/request-budget';
import type { HandshakeRecord } from '../../src/stats/handshake';
import { UndiciTransport, type UndiciTransportOptions } from '../transport/undici-transport';
import { settleWithin } from './load-deadline';
import { LoadError, type LoadErrorCode } from './load-errors';
import { summarizeRun, type LoadRun } from './run-summary';

export interface LoadPageOptions {
  url: string;
  strategy: Strategy;
  /** TLS trust, timeouts and test hooks for the transport. */
  transport?: Pick<UndiciTransportOptions, 'ca' | 'rejectUnauthorized' | 'timeoutMs' | 'handshakeDelayMs' | 'requestTimeoutMs' | 'requestTotalTimeoutMs' | 'userAgent'>;
  /** Connect to the Fetch standard's bad ports too (`--allow-unsafe-ports`). @default false */
  allowUnsafePorts?: boolean;
  /** Redirects of the document followed at most. @default 5 */
  maxRedirects?: number;
  /**
   * The whole load stops after this long: what finished is returned, the rest is marked
   * `E_LOAD_TIMEOUT`; only a document that did not finish makes it an error. @default 120000
   */
  timeoutMs?: number;
  /** Bytes of one stylesheet buffered to look for late-discovered URLs. @default 2 MiB */
  maxCssBytes?: number;
  /** Observes every response head and body chunk (every attempt), e.g. to check bytes in tests. */
  observe?: Pick<UndiciTransportOptions, 'onResponseHead' | 'onBody'>;
  /** Per-origin request budgets learned on earlier loads (request-budget.ts). @default learned afresh */
  budgets?: OriginBudgets;
  /** Response sizes learned on earlier loads (shared across runs to model a returning visitor). */
  sizeHints?: Map<string, number>;
  now?: () => number;
}

const HTML_TYPES = ['text/html', 'application/xhtml+xml'];

/**
 * Loads one page the way getlist does without a browser: fetch the document, stream it into the
 * HTML scanner, and enqueue each inlined resource the moment its tag is parsed (GETALL without the
 * server's help); stylesheets are scanned when complete for `url()` / `@import` (late discovery).
 * Every call uses fresh connections (a new transport and connector: no warm sockets, no TLS
 * session reuse across calls).
 */
export async function loadPage(options: LoadPageOptions): Promise<LoadRun> {
  const now = options.now ?? (() => performance.now());
  const startedAt = Date.now();
  const t0 = now();
  const results: RequestResult[] = [];
  const handshakes: HandshakeRecord[] = [];
  const seen = new Set<string>();
  const documents = new Set<number>();
  const scanners = new Map<number, HtmlScanner>();
  const css = new Map<number, { chunks: Buffer[]; bytes: number }>();
  const maxCss = options.maxCssBytes ?? 2 * 1024 * 1024;
  let redirects = 0;
  let documentError: LoadError | undefined;
  let finalUrl = options.url;

  const transport = new UndiciTransport({
    ...options.transport,
    now,
    onHandshake: (h) => handshakes.push(h),
    onResponseHead: (d, status, headers) => {
      options.observe?.onResponseHead?.(d, status, headers);
      onHead(d, status, headers);
    },
    onBody: (d, chunk) => {
      options.observe?.onBody?.(d, chunk);
      scanners.get(d.id)?.write(chunk);
      const buf = css.get(d.id);
      if (buf && buf.bytes < maxCss) {
        buf.chunks.push(chunk);
        buf.bytes += chunk.length;
      }
    },
    onBodyEnd: (d) => {
      scanners.get(d.id)?.end();
      scanners.delete(d.id);
      const buf = css.get(d.id);
      if (buf) {
        css.delete(d.id);
        discoverFromCss(Buffer.concat(buf.chunks).toString('utf8'), d.request.url);
      }
    },
  });
  const scheduler = new Scheduler({
    strategy: options.strategy,
    transport,
    clock: { now },
    ...(options.sizeHints ? { sizeHints: options.sizeHints } : {}),
    ...(options.allowUnsafePorts ? { allowUnsafePorts: true } : {}),
    ...(options.budgets ? { budgets: options.budgets } : {}),
    observer: { onRequestSettled: (r) => results.push(r) },
  });
  transport.attach(scheduler);

  const enqueue = (url: string, priority: PriorityClass, tag: string): void => {
    if (seen.has(url)) return;
    seen.add(url);
    try {
      scheduler.enqueue({ url, priority, tag });
    } catch (err) {
      // A discovered URL the scheduler refuses (queue full) is recorded, not fatal.
      if (!(err instanceof SchedulerError)) throw err;
    }
  };

  function onHead(d: Dispatch, status: number, headers: Record<string, string | string[] | undefined>): void {
    const type = String(headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    if (documents.has(d.request.id)) {
      const location = headers['location'];
      if (status >= 300 && status < 400 && typeof location === 'string') {
        if (redirects >= (options.maxRedirects ?? 5)) {
          documentError = new LoadError('E_TOO_MANY_REDIRECTS', `more than ${options.maxRedirects ?? 5} redirects from ${options.url}`);
          return;
        }
        redirects += 1;
        const next = new URL(location, d.request.url).href;
        finalUrl = next;
        seen.delete(next);
        const id = enqueueDocument(next);
        if (id === undefined) documentError = new LoadError('E_UNSUPPORTED_SCHEME', `${d.request.url} redirects to ${next}, which getlist cannot load`);
        return;
      }
      if (status >= 400) {
        documentError = new LoadError('E_HTTP_STATUS', `${d.request.url} answered HTTP ${status}`);
        return;
      }
      if (type && !HTML_TYPES.includes(type)) {
        documentError = new LoadError('E_NOT_HTML', `${d.request.url} is ${type}, not an HTML document; give getlist the URL of a page`);
        return;
      }
      scanners.set(d.id, createHtmlScanner({
        documentUrl: d.request.url,
        onResource: (r) => enqueue(r.url, r.priority, r.kind),
      }));
    } else if (status < 300 && (type === 'text/css' || (!type && d.request.tag === 'stylesheet'))) {
      css.set(d.id, { chunks: [], bytes: 0 });
    }
  }

  function discoverFromCss(text: string, base: string): void {
    for (const ref of extractCssUrls(text, base)) {
      if (ref.kind === 'import') enqueue(ref.url, 'blocking', 'stylesheet');
      else if (ref.inFontFace) enqueue(ref.url, 'font', 'font');
      else enqueue(ref.url, 'image', 'image');
    }
  }

  function enqueueDocument(url: string): number | undefined {
    try {
      seen.add(url);
      const id = scheduler.enqueue({ url, priority: 'document', tag: 'document' });
      documents.add(id);
      return id;
    } catch (err) {
      if (err instanceof SchedulerError) return undefined;
      throw err;
    }
  }

  try {
    seen.add(options.url);
    const id = scheduler.enqueue({ url: options.url, priority: 'document', tag: 'document' });
    documents.add(id);
  } catch (err) {
    await transport.close();
    if (err instanceof SchedulerError) {
      throw new LoadError(err.code === 'E_UNSUPPORTED_SCHEME' ? 'E_UNSUPPORTED_SCHEME' : 'E_INVALID_URL', err.message);
    }
    throw err;
  }

  const timeoutMs = options.timeoutMs ?? 120_000;
  await settleWithin(scheduler, timeoutMs, `loading ${options.url} with ${options.strategy.name}`);
  const stats = scheduler.stats();
  scheduler.close();
  await transport.close();

  const doc = results.find((r) => documents.has(r.id) && r.url === finalUrl);
  if (doc?.error) {
    const code = documentErrorCode(doc.error.code);
    const hint = doc.error.causeCode ? ` (${doc.error.causeCode})` : '';
    throw new LoadError(code, `could not load ${finalUrl}${hint}: ${doc.error.message}`, doc.error.causeCode);
  }
  if (documentError) throw documentError;
  return summarizeRun({ url: options.url, strategy: options.strategy.name, startedAt, t0, results, handshakes, stats });
}

/** A failed document fails the load; its request's code says why when it is one users act on. */
function documentErrorCode(code: string): LoadErrorCode {
  if (code === 'E_CONNECT_FAILED' || code === 'E_LOAD_TIMEOUT' || code === 'E_UNSAFE_PORT') return code;
  return 'E_DOCUMENT_FAILED';
}
