import { SchedulerError, type ErrorInfo } from './errors';
import type { HttpProtocol } from '../core/http-protocol';
import { isPriorityClass, type PriorityClass } from '../core/priority';
import type { RequestUrls, SplitUrl } from './request-url';

/** What a caller asks for. Everything but `url` and `priority` has a default. */
export interface RequestSpec {
  url: string;
  /** @default 'GET' */
  method?: string;
  priority: PriorityClass;
  /** When the request became known (ms on the scheduler's clock). @default clock.now() at enqueue */
  discoveredAt?: number;
  /**
   * Where the request stands in discovery order when the caller knows better than enqueue order
   * (a replay's `discoveredAt`, ms since the browser's navigation start). The queue serves a lane
   * in ascending `order`, ties in enqueue order; so the `browser` strategy fetches as the browser
   * found, and prioritising strategies order within each class by it. Give it for every request
   * of a load or for none. @default enqueue order
   */
  order?: number;
  /** A size learned earlier or declared (e.g. by a preload hint), used to avoid pipelining behind it. */
  expectedSize?: number;
  /**
   * What kind of resource it is (a discovery kind such as `stylesheet`, or the browser's
   * webRequest type such as `main_frame`), carried into results unread by the scheduler.
   */
  resourceType?: string;
  /**
   * Asked from a learned list before the page named it (a revisit's whole demand at t = 0,
   * page-list.ts `speculativeList`). Once a load has such a burst, it opens no HTTP/2 windows for
   * demand (h2-windows.ts): the list already fills the path. @default false
   */
  listed?: boolean;
}

export type RequestState = 'queued' | 'sent' | 'done' | 'failed';

/** A request as the scheduler tracks it. Mutable by the scheduler only. */
export interface ScheduledRequest {
  readonly id: number;
  readonly url: string;
  readonly method: string;
  readonly priority: PriorityClass;
  readonly origin: string;
  /** Path plus query, as sent on the request line. */
  readonly path: string;
  /** The port connected to (the scheme's default when the URL names none). */
  readonly port: number;
  readonly discoveredAt: number;
  readonly queuedAt: number;
  /** `RequestSpec.order`: the queue's key within a lane (undefined: arrival order). */
  readonly order: number | undefined;
  readonly expectedSize: number | undefined;
  readonly resourceType: string | undefined;
  readonly idempotent: boolean;
  state: RequestState;
  /** How many times it has been handed to a connection (at most `MAX_SENDS`, retry-policy.ts). */
  attempts: number;
  /** Attempts that failed and counted against `MAX_ATTEMPTS` (a request lost unanswered on a reused connection does not count). */
  failedAttempts: number;
  /** Set when a previous attempt was lost with its connection (RFC 9112 §9.3.2 rules apply). */
  retrying: boolean;
  /**
   * The fingerprint of its URL's last trusted response, from origin memory (response-fingerprint.ts),
   * read at enqueue on an origin not yet proven to keep order; undefined when unknown.
   */
  knownFingerprint: string | undefined;
  /**
   * The scheduler's own `HEAD` of a framing order proof (order-probe.ts), never a caller's request:
   * it is counted in `SchedulerStats.orderProbes`, never reported as a result, never retried.
   */
  readonly orderProbe: boolean;
  /**
   * The last attempt whose answer was unusable (discarded with a desynchronised connection, or a
   * bad response) failed with this: what the request settles with if a later attempt is only lost
   * unanswered (retry-policy.ts `lostError`).
   */
  answerError: unknown;
  /**
   * Its last send was lost unanswered, written first on a used or idle connection, which had sat
   * idle this long (0: handed it the moment it was free), so an idle close may have raced it
   * (idle-race.ts): its
   * retry goes only onto a connection that has carried nothing. Undefined otherwise.
   */
  lostIdleMs: number | undefined;
  /** Its response's `Content-Type` contradicted its kind (content-type-check.ts): what, and what was done. */
  contradiction: string | undefined;
}

/** The outcome of one request, as reported to observers and printed by the CLI. */
export interface RequestResult {
  id: number;
  url: string;
  method: string;
  priority: PriorityClass;
  origin: string;
  resourceType: string | undefined;
  discoveredAt: number;
  queuedAt: number;
  sentAt: number | undefined;
  firstByteAt: number | undefined;
  doneAt: number;
  status: number | undefined;
  /** Body bytes received (of the final attempt). */
  bytes: number;
  connectionId: number | undefined;
  /** True when the final attempt went on a connection that had already carried a request. */
  reused: boolean;
  /** True when the final attempt was written while an earlier response on its connection was unfinished. */
  pipelined: boolean;
  attempts: number;
  /** The final attempt's connection's protocol; undefined when it never reached a ready connection. */
  protocol: HttpProtocol | undefined;
  error: ErrorInfo | undefined;
  /** `Link` header values of `103 Early Hints` that preceded the response, when there were any. */
  earlyHints?: string[];
  /**
   * A response's `Content-Type` contradicted the request's kind (an image answered with an HTML
   * page): what it said and what the scheduler did. The final answer is delivered whatever its type.
   */
  contradiction?: string;
}

/**
 * Methods RFC 9110 §9.2.2 defines as idempotent. Only these are ever retried; only GET and HEAD
 * are ever pipelined (see `isPipelinable`).
 */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'TRACE']);
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export function isPipelinable(method: string): boolean {
  return method === 'GET' || method === 'HEAD';
}

export function originOf(url: URL): string {
  return `${url.protocol}//${url.host}`;
}

/**
 * Validates a spec and builds the tracked request. Throws `SchedulerError` with a stable code.
 * `urls` splits URLs of origins parsed before without parsing them again (request-url.ts).
 */
export function createRequest(spec: RequestSpec, id: number, now: number, urls?: RequestUrls): ScheduledRequest {
  if (!spec || typeof spec !== 'object') {
    throw new SchedulerError('E_INVALID_URL', `expected a request object, got ${spec === null ? 'null' : typeof spec}`);
  }
  const split = (typeof spec.url === 'string' ? urls?.lookup(spec.url) : undefined) ?? parseAndSplit(spec.url, urls);
  const method = spec.method ?? 'GET';
  if (method !== 'GET' && (typeof method !== 'string' || !TOKEN.test(method) || method !== method.toUpperCase())) {
    throw new SchedulerError('E_INVALID_METHOD', `expected an upper-case HTTP method token, got ${JSON.stringify(method)}`);
  }
  if (!isPriorityClass(spec.priority)) {
    throw new SchedulerError('E_INVALID_PRIORITY', `expected a priority class (document, blocking, font, visible-image, script, image, other, prefetch), got ${JSON.stringify(spec.priority)}`);
  }
  if (spec.order !== undefined && !Number.isFinite(spec.order)) {
    throw new SchedulerError('E_INVALID_OPTION', `order must be a finite number, got ${String(spec.order)}`);
  }
  if (spec.expectedSize !== undefined && !(Number.isFinite(spec.expectedSize) && spec.expectedSize >= 0)) {
    throw new SchedulerError('E_INVALID_OPTION', `expectedSize must be a non-negative number of bytes, got ${String(spec.expectedSize)}`);
  }
  return {
    id,
    url: split.href,
    method,
    priority: spec.priority,
    origin: split.origin,
    path: split.path,
    port: split.port,
    discoveredAt: typeof spec.discoveredAt === 'number' && Number.isFinite(spec.discoveredAt) ? spec.discoveredAt : now,
    queuedAt: now,
    order: spec.order,
    expectedSize: spec.expectedSize,
    resourceType: spec.resourceType,
    idempotent: IDEMPOTENT.has(method),
    state: 'queued',
    attempts: 0,
    failedAttempts: 0,
    retrying: false,
    knownFingerprint: undefined,
    orderProbe: false,
    answerError: undefined,
    lostIdleMs: undefined,
    contradiction: undefined,
  };
}

/** The full parse: an http(s) URL or a coded error. */
function parseAndSplit(raw: unknown, urls: RequestUrls | undefined): SplitUrl {
  const url = parseUrl(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SchedulerError('E_UNSUPPORTED_SCHEME', `only http: and https: URLs can be scheduled, got ${url.protocol}`);
  }
  const split = splitUrl(url);
  if (split.canonical) urls?.remember(split.origin, split.port);
  return split;
}

function parseUrl(raw: unknown): URL {
  if (typeof raw === 'string') {
    try {
      return new URL(raw);
    } catch {
      // fall through to the coded error
    }
  }
  throw new SchedulerError('E_INVALID_URL', `expected an absolute URL, got ${JSON.stringify(raw)}`);
}

/**
 * The request URL without its fragment, its origin, the request target and the port. For http(s)
 * URLs without credentials the serialised href is `origin + path + search (+ hash)` (`canonical`),
 * so two getters suffice; otherwise the components are read one by one.
 */
function splitUrl(url: URL): SplitUrl & { canonical: boolean } {
  const full = url.href;
  const hashAt = full.indexOf('#');
  const href = hashAt < 0 ? full : full.slice(0, hashAt);
  const origin = url.origin;
  const port = url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  if (href.startsWith(origin) && href.charCodeAt(origin.length) === 47 /* '/' */) {
    return { href, origin, path: href.slice(origin.length), port, canonical: true };
  }
  return { href, origin: originOf(url), path: `${url.pathname}${url.search}`, port, canonical: false };
}
