import { createHtmlScanner, decodeWindows1252, sniffCharset, type DiscoveredResource, type HtmlScanner, type Viewport } from '../../src/discovery';
import { Scheduler, SchedulerError, type Dispatch, type PriorityClass, type RequestResult, type Strategy } from '../../src/scheduler';
import type { HandshakeRecord } from '../../src/stats/handshake';
import { UndiciTransport, type UndiciTransportOptions } from '../transport/undici-transport';
import { BodyDecoder } from './body-decoder';
import { LoadError } from './load-errors';
import { summarizeRun, type LoadRun, type SkippedResource } from './run-summary';

export interface LoadPageOptions {
  url: string;
  strategy: Strategy;
  /** TLS trust, timeouts, host mappings and test hooks for the transport. */
  transport?: Pick<UndiciTransportOptions, 'ca' | 'rejectUnauthorized' | 'timeoutMs' | 'handshakeDelayMs' | 'requestTimeoutMs' | 'userAgent' | 'hostMappings'>;
  /** Redirects of the document followed at most. @default 5 */
  maxRedirects?: number;
  /** The whole load is abandoned after this long. @default 120000 */
  timeoutMs?: number;
  /** Decoded bytes of one stylesheet buffered to look for late-discovered URLs. @default 2 MiB */
  maxCssBytes?: number;
  /** Response sizes learned on earlier loads (shared across runs to model a returning visitor). */
  sizeHints?: Map<string, number>;
  /** The screen images, media queries and lazy loading are chosen for. @default 1280×800, DPR 1 */
  viewport?: Partial<Viewport>;
  /**
   * `loading=lazy` content guessed beyond the lazy-loading margin: `last` fetches it after
   * everything else was discovered (a browser with scripting off fetches it all, one with
   * scripting on when scrolled near), `skip` never fetches it (listed in `skipped`). @default 'last'
   */
  lazy?: 'last' | 'skip';
  now?: () => number;
}

const HTML_TYPES = ['text/html', 'application/xhtml+xml'];
/** Bytes of a document read before deciding its encoding (HTML's prescan window). */
const SNIFF_BYTES = 1024;

/** A document body on its way into the scanner: decoded, then charset-sniffed, then scanned. */
interface DocumentBody {
  url: string;
  /** Created once the encoding is known (its URLs' queries depend on it). */
  scanner: HtmlScanner | undefined;
  contentType: string | undefined;
  head: Buffer[];
  headBytes: number;
  text: InstanceType<typeof TextDecoder> | undefined;
  utf8: boolean | undefined;
}

/**
 * Loads one page the way getlist does without a browser: fetch the document, stream it (decoded)
 * into the HTML scanner, and enqueue each resource the moment the browser would know of it (GETALL
 * without the server's help); stylesheets go back to the scanner when complete, which fetches
 * their `url()`s for matching elements and their fonts for text set in them (late discovery).
 * Lazy content beyond the fold is fetched once all else is done (or never, `lazy: 'skip'`); mixed
 * content is upgraded or left out, as a browser does. Every call uses fresh connections (a new transport and connector: no warm sockets, no TLS
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
  const bodies = new Map<number, DocumentBody>();
  const css = new Map<number, { chunks: Buffer[]; bytes: number }>();
  const decoders = new Map<number, BodyDecoder>();
  const decodedBytes = new Map<number, number>();
  const skipped: SkippedResource[] = [];
  const deferred: DiscoveredResource[] = [];
  const maxCss = options.maxCssBytes ?? 2 * 1024 * 1024;
  let page: HtmlScanner | undefined;
  let redirects = 0;
  let documentError: LoadError | undefined;
  let finalUrl = options.url;

  const transport = new UndiciTransport({
    ...options.transport,
    now,
    onHandshake: (h) => handshakes.push(h),
    onResponseHead: (d, status, headers) => onHead(d, status, headers),
    onBody: (d, chunk) => decoders.get(d.id)?.write(chunk),
    onBodyEnd: (d) => {
      const decoder = decoders.get(d.id);
      if (!decoder) return undefined;
      decoders.delete(d.id);
      return decoder.end().then(() => {
        decodedBytes.set(d.request.id, decoder.decodedBytes);
        finishBody(d);
      });
    },
  });
  const scheduler = new Scheduler({
    strategy: options.strategy,
    transport,
    clock: { now },
    ...(options.sizeHints ? { sizeHints: options.sizeHints } : {}),
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

  const onResource = (r: DiscoveredResource): void => {
    if (r.mixedContent === 'blocked') skipped.push({ url: r.url, kind: r.kind, reason: 'mixed-content' });
    else if (r.deferred && options.lazy === 'skip') skipped.push({ url: r.url, kind: r.kind, reason: 'lazy' });
    else if (r.deferred) deferred.push(r);
    else enqueue(r.url, r.priority, r.kind);
  };

  function onHead(d: Dispatch, status: number, headers: Record<string, string | string[] | undefined>): void {
    const contentType = headerValue(headers['content-type']);
    const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
    const encoding = (headerValue(headers['content-encoding']) ?? '').trim().toLowerCase();
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
      const body: DocumentBody = { url: d.request.url, scanner: undefined, contentType, head: [], headBytes: 0, text: undefined, utf8: undefined };
      bodies.set(d.id, body);
      decoders.set(d.id, new BodyDecoder(encoding, (chunk) => writeDocument(body, chunk)));
    } else if (status < 300 && (type === 'text/css' || (!type && d.request.tag === 'stylesheet'))) {
      const buf = { chunks: [] as Buffer[], bytes: 0 };
      css.set(d.id, buf);
      decoders.set(d.id, new BodyDecoder(encoding, (chunk) => {
        if (buf.bytes >= maxCss) return;
        buf.chunks.push(chunk);
        buf.bytes += chunk.length;
      }));
    } else if (BodyDecoder.decodes(encoding)) {
      decoders.set(d.id, new BodyDecoder(encoding, () => undefined)); // decoded only to count
    }
  }

  /** Decoded document bytes → the scanner, once the encoding is known (BOM, header, meta prescan). */
  function writeDocument(body: DocumentBody, chunk: Buffer): void {
    if (body.utf8 === undefined) {
      body.head.push(chunk);
      body.headBytes += chunk.length;
      if (body.headBytes < SNIFF_BYTES) return;
      startDocument(body);
      return;
    }
    if (body.utf8) body.scanner?.write(chunk);
    else if (body.text === undefined) body.scanner?.write(decodeWindows1252(chunk));
    else body.scanner?.write(body.text.decode(chunk, { stream: true }));
  }

  function startDocument(body: DocumentBody): void {
    const head = Buffer.concat(body.head);
    body.head = [];
    const charset = sniffCharset(head, body.contentType);
    body.utf8 = charset === 'utf-8';
    // windows-1252 by hand: Node 20's TextDecoder reads it as ISO-8859-1 (see windows-1252.ts).
    if (!body.utf8 && charset !== 'windows-1252') body.text = new TextDecoder(charset);
    page = createHtmlScanner({ documentUrl: body.url, onResource, encoding: charset, ...(options.viewport ? { viewport: options.viewport } : {}) });
    body.scanner = page;
    writeDocument(body, head);
  }

  function finishBody(d: Dispatch): void {
    const body = bodies.get(d.id);
    if (body) {
      bodies.delete(d.id);
      if (body.utf8 === undefined) startDocument(body);
      if (body.text) body.scanner?.write(body.text.decode());
      body.scanner?.end();
    }
    const buf = css.get(d.id);
    if (buf) {
      css.delete(d.id);
      page?.addStylesheet(d.request.url, Buffer.concat(buf.chunks).toString('utf8'));
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
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  let outcome = await Promise.race([scheduler.whenIdle(), timedOut]);
  // Lazy content beyond the fold comes last, once everything else is done — as a browser loads it
  // when the reader scrolls near it, after the load.
  if (outcome !== 'timeout' && deferred.length > 0) {
    for (const r of deferred.splice(0)) enqueue(r.url, r.priority, r.kind);
    outcome = await Promise.race([scheduler.whenIdle(), timedOut]);
  }
  clearTimeout(timer);
  const stats = scheduler.stats();
  scheduler.close();
  await transport.close();

  if (outcome === 'timeout') {
    throw new LoadError('E_LOAD_TIMEOUT', `loading ${options.url} with ${options.strategy.name} took longer than ${timeoutMs} ms`);
  }
  const doc = results.find((r) => documents.has(r.id) && r.url === finalUrl);
  if (doc?.error) {
    const code = doc.error.code === 'E_CONNECT_FAILED' ? 'E_CONNECT_FAILED' : 'E_DOCUMENT_FAILED';
    const hint = doc.error.causeCode ? ` (${doc.error.causeCode})` : '';
    throw new LoadError(code, `could not load ${finalUrl}${hint}: ${doc.error.message}`, doc.error.causeCode);
  }
  if (documentError) throw documentError;
  return summarizeRun({
    url: options.url,
    strategy: options.strategy.name,
    startedAt,
    t0,
    results,
    handshakes,
    stats,
    decodedBytes,
    skipped,
    unmatchedCssUrls: page?.unmatchedCssUrls ?? 0,
  });
}

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v.join(', ') : v;
}
