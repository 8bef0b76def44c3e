import { discoveryWarmedByPage, warmDiscoveryWhileWaiting, type WarmUp } from './discovery-warm-up';
import { createHtmlScanner, type DiscoveredResource, type HtmlScanner, type OriginHint, type Viewport } from '../../src/discovery';
import type { ListedResource, VisitResource } from '../../src/origins/page-list';
import type { SkippedResource } from '../../src/run';
import { SchedulerError, type Dispatch, type RequestResult, type Scheduler } from '../../src/scheduler';
import type { PriorityClass } from '../../src/core/priority';
import type { ResponseHooks } from '../transport/response-hooks';
import { DocumentText } from './document-text';
import { LoadError, type LoadErrorCode } from './load-errors';

const HTML_TYPES = ['text/html', 'application/xhtml+xml'];
/** Bytes of a stylesheet searched for leading `@import`s before its body is complete. */
const IMPORT_SCAN_BYTES = 64 * 1024;

export interface PageDiscoveryOptions {
  url: string;
  /** Redirects of the document followed at most. */
  maxRedirects: number;
  /** Decoded bytes of one stylesheet buffered to look for late-discovered URLs. */
  maxCssBytes: number;
  /** Open a connection to each origin a `<link rel=preconnect|dns-prefetch>` names, once parsed. */
  preconnectHints?: boolean;
  /** Request a stylesheet's `@import`s at its first bytes, not once it is complete (`Strategy.discovery.earlyImports`). */
  earlyImports?: boolean;
  /** The screen images, media queries and lazy loading are chosen for. @default 1280×800, DPR 1 */
  viewport?: Partial<Viewport>;
  /**
   * `loading=lazy` content guessed beyond the lazy-loading margin: `last` fetches it after
   * everything else was discovered (a browser with scripting off fetches it all, one with
   * scripting on when scrolled near), `skip` never fetches it (listed in `skipped`). @default 'last'
   */
  lazy?: 'last' | 'skip';
  /**
   * Fetch only the document and its style sheets: every other resource is named (`found`) and not
   * fetched — what the page names, through its markup and its CSS, without the rest of its bytes
   * (the browser's fill-in, native-host/run/discover-page.ts). @default false
   */
  sheetsOnly?: boolean;
  /**
   * Warm the discovery code while the document is on its way (discovery-warm-up.ts): in a fresh
   * process it is cold, and the first page's parsing then holds the loop its connections need.
   * @default false
   */
  warmUp?: boolean;
}

/**
 * GETALL without the server's help: what a page load discovers as its bytes arrive, choosing as a
 * browser does. The document (bodies arrive here already content-decoded) is charset-sniffed and
 * streamed into the HTML scanner, and each resource is enqueued the moment the browser would know
 * of it; stylesheets are buffered and handed back to the scanner when complete, which reports
 * their `@import`s, the `url()`s of rules an element matches and fonts for text set in them (late
 * discovery); the document's redirects are followed. Mixed content a browser blocks is listed in
 * `skipped`, never fetched; lazy content beyond the fold waits for `takeDeferred` (or is skipped).
 * Each URL is enqueued at most once.
 *
 * A returning visit's learned list (`start`'s `speculative`) is enqueued right behind the document,
 * before any of it is parsed (GETLIST); when the page names one of those URLs it joins the request
 * already made. A speculative stylesheet that is complete before the page names it is held and
 * handed to the scanner when the page does (the scanner only applies sheets it has seen linked,
 * in cascade order), so its `url()`s, fonts and `@import`s are found as on a first visit. What the
 * page never names is `unused` (`speculativeOutcome`).
 *
 * Invariant: a body's discoveries are enqueued in `onBodyEnd`, which the transport calls before the
 * scheduler settles that request, so the scheduler is never idle while a discovery is pending.
 */
export class PageDiscovery {
  private scheduler: Scheduler | undefined;
  private readonly seen = new Set<string>();
  /** Request ids of the document and each redirect target. */
  private readonly documents = new Set<number>();
  /** Document bodies being scanned, by dispatch id. */
  private readonly documentBodies = new Map<number, DocumentText>();
  /** Stylesheet bodies being buffered; `start` while their leading `@import`s may still grow. */
  private readonly css = new Map<number, { chunks: Buffer[]; bytes: number; start: boolean }>();
  /** The scanner of the last document that answered with a page: stylesheets go back to it. */
  private page: HtmlScanner | undefined;
  private readonly deferred: DiscoveredResource[] = [];
  private readonly skippedList: SkippedResource[] = [];
  private redirects = 0;
  private documentError: LoadError | undefined;
  private finalUrl: string;
  /** Speculative requests by scheduler id, and the URLs of those the page has not named (yet). */
  private readonly speculativeIds = new Map<number, string>();
  private readonly unnamed = new Set<string>();
  /** Every URL the page named, with its place in discovery order (what a next visit learns). */
  private readonly named = new Map<string, number>();
  /** Lazy content beyond the fold: named, but not learned for a next visit's list. */
  private readonly lazyUrls = new Set<string>();
  /** Speculative sheets complete before the page named them, by URL; and those named since, to hand over. */
  private readonly earlySheets = new Map<string, string>();
  private readonly sheetsDue: string[] = [];
  /** Every resource the scan reported, in discovery order (first report of a URL only). */
  private readonly foundList: DiscoveredResource[] = [];
  private readonly foundUrls = new Set<string>();
  /** What named each URL first: the document, or the style sheet whose body did. */
  private readonly namedBy = new Map<string, string>();
  private warming: WarmUp | undefined;
  /** A document (or a redirect) answered: no later handshake is the page's first wait. */
  private documentStarted = false;

  readonly hooks: ResponseHooks = {
    onSent: (d, rttMs) => this.onSent(d, rttMs),
    onResponseHead: (d, status, headers) => this.onHead(d, status, headers),
    onBody: (d, chunk) => this.onBody(d, chunk),
    onBodyEnd: (d) => this.onBodyEnd(d),
  };

  constructor(private readonly options: PageDiscoveryOptions) {
    this.finalUrl = options.url;
  }

  /**
   * Enqueues the document, then `speculative` (a learned list already filtered and ranked,
   * page-list.ts `speculativeList`) as GETs right behind it. The document is enqueued first and
   * its class outranks every other, so it takes the first connection ready for its origin.
   * @throws LoadError `E_UNSUPPORTED_SCHEME` or `E_INVALID_URL` when the scheduler refuses its URL.
   */
  start(scheduler: Scheduler, speculative: readonly ListedResource[] = []): void {
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
    for (const r of speculative) {
      if (this.seen.has(r.url)) continue;
      try {
        const id = scheduler.enqueue({ url: r.url, priority: r.priority, resourceType: r.resourceType, expectedSize: r.bytes, listed: true });
        this.seen.add(r.url);
        this.speculativeIds.set(id, r.url);
        this.unnamed.add(r.url);
      } catch (err) {
        // A learned URL the scheduler refuses is left to parsing, which will meet the same refusal.
        if (!(err instanceof SchedulerError)) throw err;
      }
    }
  }

  /** Each speculative request by scheduler id: `used` when the page named its URL, else `unused`. */
  speculativeOutcome(): Map<number, 'used' | 'unused'> {
    return new Map([...this.speculativeIds].map(([id, url]) => [id, this.unnamed.has(url) ? 'unused' : 'used']));
  }

  /**
   * What this load teaches the page's list: each sub-resource the page named and a GET fetched
   * with a 2xx answer, in discovery order; not the document or its redirects, not lazy content
   * beyond the fold, not a guess the page did not name. The favicon also when it was missing
   * (404/410): the browser asks for it on every load whatever it answers, so asking early costs no
   * request, while found only at the document's end it is the last request of the revisit,
   * started after everything it could have overlapped.
   */
  visit(results: readonly RequestResult[]): VisitResource[] {
    const out: VisitResource[] = [];
    for (const r of results) {
      const order = this.named.get(r.url);
      if (order === undefined || this.documents.has(r.id) || this.lazyUrls.has(r.url) || r.method !== 'GET' || r.error || r.status === undefined) continue;
      const missingIcon = r.resourceType === 'icon' && (r.status === 404 || r.status === 410);
      if ((r.status < 200 || r.status >= 300) && !missingIcon) continue;
      out.push({ url: r.url, resourceType: r.resourceType ?? 'other', priority: r.priority, bytes: r.bytes, order });
    }
    return out.sort((a, b) => a.order - b.order);
  }

  /** What the page named but the load did not fetch, as a browser would not. */
  get skipped(): readonly SkippedResource[] {
    return this.skippedList;
  }

  /** Style sheet `url()`s no element matched (counted when the document ended). */
  get unmatchedCssUrls(): number {
    return this.page?.unmatchedCssUrls ?? 0;
  }

  /**
   * Enqueues the lazy content held back until the rest of the load was done (as a browser loads it
   * when the reader scrolls near, after the load); whether there was any.
   */
  takeDeferred(): boolean {
    const lazy = this.deferred.splice(0);
    for (const r of lazy) this.enqueue(r.url, r.priority, r.kind);
    this.deliverSheets();
    return lazy.length > 0;
  }

  /**
   * Throws the load's failure, if it had one: the final document's request failed, or its answer
   * was not a page (`E_HTTP_STATUS`, `E_NOT_HTML`, a redirect getlist cannot follow).
   */
  checkDocument(results: readonly RequestResult[]): void {
    const doc = results.find((r) => this.documents.has(r.id) && r.url === this.finalUrl);
    if (doc?.error) {
      const code = documentErrorCode(doc.error.code);
      const hint = doc.error.causeCode ? ` (${doc.error.causeCode})` : '';
      throw new LoadError(code, `could not load ${this.finalUrl}${hint}: ${doc.error.message}`, doc.error.causeCode);
    }
    if (this.documentError) throw this.documentError;
  }

  private enqueue(url: string, priority: PriorityClass, resourceType: string): void {
    this.name(url);
    if (this.seen.has(url)) return;
    this.seen.add(url);
    try {
      this.scheduler?.enqueue({ url, priority, resourceType });
    } catch (err) {
      // A discovered URL the scheduler refuses (queue full) is recorded, not fatal.
      if (!(err instanceof SchedulerError)) throw err;
    }
  }

  /** The page names `url`: a speculative request for it is joined (and its early body, if a sheet, is due). */
  private name(url: string): void {
    if (!this.named.has(url)) this.named.set(url, this.named.size);
    if (!this.unnamed.delete(url)) return;
    if (this.earlySheets.has(url)) this.sheetsDue.push(url);
  }

  /** The document's URL after the redirects followed so far. */
  get documentUrl(): string {
    return this.finalUrl;
  }

  /** Every resource the page named, markup and CSS alike, in the order found (mixed content a browser blocks included). */
  get found(): readonly DiscoveredResource[] {
    return this.foundList;
  }

  /** Each URL the page named, with the document or style sheet that named it first. */
  get parents(): ReadonlyMap<string, string> {
    return this.namedBy;
  }

  private onResource(r: DiscoveredResource): void {
    if (!this.foundUrls.has(r.url)) {
      this.foundUrls.add(r.url);
      this.foundList.push(r);
      this.namedBy.set(r.url, r.sheet ?? this.finalUrl);
    }
    if (this.options.sheetsOnly && r.kind !== 'stylesheet') this.name(r.url);
    else if (r.mixedContent === 'blocked') this.skippedList.push({ url: r.url, resourceType: r.kind, reason: 'mixed-content' });
    else if (r.deferred && this.options.lazy === 'skip') {
      this.name(r.url);
      this.lazyUrls.add(r.url);
      this.skippedList.push({ url: r.url, resourceType: r.kind, reason: 'lazy' });
    } else if (r.deferred) {
      this.name(r.url);
      this.lazyUrls.add(r.url);
      this.deferred.push(r);
    } else this.enqueue(r.url, r.priority, r.kind);
  }

  /**
   * Hands the scanner the early sheets the page has named since: outside the scanner's own
   * delivery (a sheet's discoveries are reported by the call that adds it), and again while adding
   * one names another (an `@import` of a sheet that also came early).
   */
  private deliverSheets(): void {
    for (let url = this.sheetsDue.shift(); url !== undefined; url = this.sheetsDue.shift()) {
      const css = this.earlySheets.get(url);
      this.earlySheets.delete(url);
      if (css !== undefined) this.page?.addStylesheet(url, css);
    }
  }

  private onHead(d: Dispatch, status: number, headers: Record<string, string | string[] | undefined>): void {
    const contentType = headerValue(headers['content-type']);
    const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
    if (this.documents.has(d.request.id)) this.onDocumentHead(d, status, type, contentType, headers['location']);
    else if (status < 300 && (type === 'text/css' || (!type && d.request.resourceType === 'stylesheet'))) {
      this.css.set(d.id, { chunks: [], bytes: 0, start: this.options.earlyImports === true });
    }
  }

  /**
   * A document's request is on its way: until its answer, a round trip away, the loop has nothing
   * of this page to do, which is when discovery may warm up (`warmUp`). Not while a TCP connect is
   * pending, whose round trip is not known yet: its `connect` event must not wait for a step.
   */
  private onSent(d: Dispatch, rttMs: number | undefined): void {
    if (this.options.warmUp === true && this.documents.has(d.request.id)) this.warmUpFor(rttMs);
  }

  /**
   * A TLS handshake started on a connection to the document's origin, before the document
   * answered: its server's flight is a round trip away (`rttMs`, what its TCP handshake took), a
   * wait discovery may warm up in as in the document's own (`onSent`): its steps run from the next
   * turn of the loop, and only in the first half of that round trip (discovery-warm-up.ts).
   */
  onTlsStart(origin: string, rttMs: number): void {
    if (this.options.warmUp !== true || this.documentStarted) return;
    if (origin === new URL(this.finalUrl).origin) this.warmUpFor(rttMs);
  }

  /** A wait of `rttMs` begins: the warm-up runs in it, in place of any earlier one. */
  private warmUpFor(rttMs: number | undefined): void {
    this.warming?.stop();
    this.warming = warmDiscoveryWhileWaiting(rttMs);
  }

  /**
   * Ends the warm-up, if one runs: the load is over. A load that scanned a document leaves its
   * process warm, and later loads of the process do not warm up.
   */
  stopWarmUp(): void {
    this.warming?.stop();
    if (this.page !== undefined) discoveryWarmedByPage();
  }

  private onDocumentHead(d: Dispatch, status: number, type: string, contentType: string | undefined, location: string | string[] | undefined): void {
    // The document's bytes are here: from now on the loop is the page's.
    this.warming?.stop();
    this.documentStarted = true;
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
    const documentUrl = d.request.url;
    this.documentBodies.set(d.id, new DocumentText(contentType, (encoding) => {
      this.page = createHtmlScanner({
        documentUrl,
        onResource: (r) => this.onResource(r),
        encoding,
        ...(this.options.viewport ? { viewport: this.options.viewport } : {}),
        ...(this.options.preconnectHints ? { onOriginHint: (h: OriginHint) => this.preconnectHint(h) } : {}),
      });
      return this.page;
    }));
  }

  private preconnectHint(hint: OriginHint): void {
    try {
      this.scheduler?.preconnectHint(hint.origin, hint.rel);
    } catch (err) {
      // A hint naming an origin the scheduler cannot reach is ignored, as a browser ignores it.
      if (!(err instanceof SchedulerError)) throw err;
    }
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
    this.documentBodies.get(d.id)?.write(chunk);
    const buf = this.css.get(d.id);
    if (buf && buf.bytes < this.options.maxCssBytes) {
      buf.chunks.push(chunk);
      buf.bytes += chunk.length;
      if (buf.start) this.stylesheetStart(d, buf);
    }
    this.deliverSheets();
  }

  /**
   * A sheet's `@import`s are requested as soon as their statements have arrived, not once the whole
   * sheet has (they must precede every rule, so they are in its first bytes): the imported sheet's
   * round trip overlaps the rest of its importer's body. Looked for in the first
   * `IMPORT_SCAN_BYTES` only, and no longer once a rule has started.
   */
  private stylesheetStart(d: Dispatch, buf: { chunks: Buffer[]; bytes: number; start: boolean }): void {
    const more = this.page?.addStylesheetStart(d.request.url, Buffer.concat(buf.chunks).toString('utf8')) ?? false;
    if (!more || buf.bytes >= IMPORT_SCAN_BYTES) buf.start = false;
  }

  private onBodyEnd(d: Dispatch): void {
    this.documentBodies.get(d.id)?.end();
    this.documentBodies.delete(d.id);
    const buf = this.css.get(d.id);
    if (buf) {
      this.css.delete(d.id);
      const css = Buffer.concat(buf.chunks).toString('utf8');
      // Asked for from the list and not linked yet: held until the page names it (or never).
      if (this.unnamed.has(d.request.url)) this.earlySheets.set(d.request.url, css);
      else this.page?.addStylesheet(d.request.url, css);
    }
    this.deliverSheets();
  }
}

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v.join(', ') : v;
}

/** A failed document fails the load; its request's code says why when it is one users act on. */
function documentErrorCode(code: string): LoadErrorCode {
  if (code === 'E_CONNECT_FAILED' || code === 'E_LOAD_TIMEOUT' || code === 'E_UNSAFE_PORT') return code;
  return 'E_DOCUMENT_FAILED';
}
