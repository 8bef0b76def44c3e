import { createHtmlScanner, extractCssUrls, type HtmlScanner } from '../../src/discovery';
import { SchedulerError, type Dispatch, type PriorityClass, type RequestResult, type Scheduler } from '../../src/scheduler';
import type { ResponseHooks } from '../transport/response-hooks';
import { LoadError } from './load-errors';

const HTML_TYPES = ['text/html', 'application/xhtml+xml'];

export interface PageDiscoveryOptions {
  url: string;
  /** Redirects of the document followed at most. */
  maxRedirects: number;
  /** Bytes of one stylesheet buffered to look for late-discovered URLs. */
  maxCssBytes: number;
}

/**
 * GETALL without the server's help: what a page load discovers as its bytes arrive. The document
 * is streamed into the HTML scanner and each inlined resource is enqueued the moment its tag is
 * parsed; stylesheets are buffered and scanned for `url()` / `@import` when complete (late
 * discovery); the document's redirects are followed. Each URL is enqueued at most once.
 *
 * Invariant: a body's discoveries are enqueued in `onBodyEnd`, which the transport calls before the
 * scheduler settles that request, so the scheduler is never idle while a discovery is pending.
 */
export class PageDiscovery {
  private scheduler: Scheduler | undefined;
  private readonly seen = new Set<string>();
  /** Request ids of the document and each redirect target. */
  private readonly documents = new Set<number>();
  private readonly scanners = new Map<number, HtmlScanner>();
  private readonly css = new Map<number, { chunks: Buffer[]; bytes: number }>();
  private redirects = 0;
  private documentError: LoadError | undefined;
  private finalUrl: string;

  readonly hooks: ResponseHooks = {
    onResponseHead: (d, status, headers) => this.onHead(d, status, headers),
    onBody: (d, chunk) => this.onBody(d, chunk),
    onBodyEnd: (d) => this.onBodyEnd(d),
  };

  constructor(private readonly options: PageDiscoveryOptions) {
    this.finalUrl = options.url;
  }

  /**
   * Enqueues the document.
   * @throws LoadError `E_UNSUPPORTED_SCHEME` or `E_INVALID_URL` when the scheduler refuses its URL.
   */
  start(scheduler: Scheduler): void {
    this.scheduler = scheduler;
    try {
      this.seen.add(this.options.url);
      this.documents.add(scheduler.enqueue({ url: this.options.url, priority: 'document', resourceType: 'document' }));
    } catch (err) {
      if (err instanceof SchedulerError) {
        throw new LoadError(err.code === 'E_UNSUPPORTED_SCHEME' ? 'E_UNSUPPORTED_SCHEME' : 'E_INVALID_URL', err.message);
      }
      throw err;
    }
  }

  /**
   * Throws the load's failure, if it had one: the final document's request failed, or its answer
   * was not a page (`E_HTTP_STATUS`, `E_NOT_HTML`, a redirect getlist cannot follow).
   */
  checkDocument(results: readonly RequestResult[]): void {
    const doc = results.find((r) => this.documents.has(r.id) && r.url === this.finalUrl);
    if (doc?.error) {
      const code = doc.error.code === 'E_CONNECT_FAILED' ? 'E_CONNECT_FAILED' : 'E_DOCUMENT_FAILED';
      const hint = doc.error.causeCode ? ` (${doc.error.causeCode})` : '';
      throw new LoadError(code, `could not load ${this.finalUrl}${hint}: ${doc.error.message}`, doc.error.causeCode);
    }
    if (this.documentError) throw this.documentError;
  }

  private enqueue(url: string, priority: PriorityClass, resourceType: string): void {
    if (this.seen.has(url)) return;
    this.seen.add(url);
    try {
      this.scheduler?.enqueue({ url, priority, resourceType });
    } catch (err) {
      // A discovered URL the scheduler refuses (queue full) is recorded, not fatal.
      if (!(err instanceof SchedulerError)) throw err;
    }
  }

  private onHead(d: Dispatch, status: number, headers: Record<string, string | string[] | undefined>): void {
    const type = String(headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    if (this.documents.has(d.request.id)) this.onDocumentHead(d, status, type, headers['location']);
    else if (status < 300 && (type === 'text/css' || (!type && d.request.resourceType === 'stylesheet'))) {
      this.css.set(d.id, { chunks: [], bytes: 0 });
    }
  }

  private onDocumentHead(d: Dispatch, status: number, type: string, location: string | string[] | undefined): void {
    if (status >= 300 && status < 400 && typeof location === 'string') {
      this.redirect(d.request.url, new URL(location, d.request.url).href);
      return;
    }
    if (status >= 400) {
      this.documentError = new LoadError('E_HTTP_STATUS', `${d.request.url} answered HTTP ${status}`);
      return;
    }
    if (type && !HTML_TYPES.includes(type)) {
      this.documentError = new LoadError('E_NOT_HTML', `${d.request.url} is ${type}, not an HTML document; give getlist the URL of a page`);
      return;
    }
    this.scanners.set(d.id, createHtmlScanner({
      documentUrl: d.request.url,
      onResource: (r) => this.enqueue(r.url, r.priority, r.kind),
    }));
  }

  private redirect(from: string, next: string): void {
    if (this.redirects >= this.options.maxRedirects) {
      this.documentError = new LoadError('E_TOO_MANY_REDIRECTS', `more than ${this.options.maxRedirects} redirects from ${this.options.url}`);
      return;
    }
    this.redirects += 1;
    this.finalUrl = next;
    this.seen.delete(next);
    try {
      this.seen.add(next);
      this.documents.add((this.scheduler as Scheduler).enqueue({ url: next, priority: 'document', resourceType: 'document' }));
    } catch (err) {
      if (!(err instanceof SchedulerError)) throw err;
      this.documentError = new LoadError('E_UNSUPPORTED_SCHEME', `${from} redirects to ${next}, which getlist cannot load`);
    }
  }

  private onBody(d: Dispatch, chunk: Buffer): void {
    this.scanners.get(d.id)?.write(chunk);
    const buf = this.css.get(d.id);
    if (buf && buf.bytes < this.options.maxCssBytes) {
      buf.chunks.push(chunk);
      buf.bytes += chunk.length;
    }
  }

  private onBodyEnd(d: Dispatch): void {
    this.scanners.get(d.id)?.end();
    this.scanners.delete(d.id);
    const buf = this.css.get(d.id);
    if (buf) {
      this.css.delete(d.id);
      this.discoverFromCss(Buffer.concat(buf.chunks).toString('utf8'), d.request.url);
    }
  }

  private discoverFromCss(text: string, base: string): void {
    for (const ref of extractCssUrls(text, base)) {
      if (ref.kind === 'import') this.enqueue(ref.url, 'blocking', 'stylesheet');
      else if (ref.inFontFace) this.enqueue(ref.url, 'font', 'font');
      else this.enqueue(ref.url, 'image', 'image');
    }
  }
}
