/**
 * A weak desync signal (Firefox's pipelining "yellow" state): a successful response whose
 * `Content-Type` belongs to another family than the request's kind — an HTML page, a stylesheet
 * or a script where an image was asked for, an image where a script was — may be a response meant
 * for another request. Misconfigured servers send odd types too, so only a clear contradiction
 * between known families counts; an unknown or generic type (`application/octet-stream`,
 * `text/plain`) never does.
 *
 * `kind` is the request's `resourceType` (the discovery kind or the browser's resource type).
 */
type Family = 'html' | 'css' | 'script' | 'image' | 'font';

const KIND_FAMILY: Record<string, Family> = {
  image: 'image', img: 'image', imageset: 'image', 'visible-image': 'image',
  script: 'script', stylesheet: 'css', style: 'css', font: 'font',
};

function familyOf(contentType: string): Family | undefined {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type === 'text/css') return 'css';
  if (/^(?:text|application)\/(?:x-)?(?:javascript|ecmascript)$/.test(type) || type === 'text/jscript' || type === 'module') return 'script';
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('font/') || type.startsWith('application/font-') || type === 'application/x-font-woff') return 'font';
  return undefined;
}

/** The family of response a request of `kind` expects, when its kind says. */
export function expectedFamily(kind: string | undefined): Family | undefined {
  return kind === undefined ? undefined : KIND_FAMILY[kind];
}

export function contentTypeContradicts(kind: string | undefined, contentType: string | undefined, status: number): boolean {
  if (kind === undefined || contentType === undefined || status < 200 || status >= 300) return false;
  const expected = KIND_FAMILY[kind];
  const got = familyOf(contentType);
  return expected !== undefined && got !== undefined && got !== expected;
}

/** What `isOrderProof` reads of a dispatch (connection-state.ts `DispatchState`). */
interface AnsweredDispatch {
  readonly request: { readonly resourceType?: string };
  readonly status: number | undefined;
  readonly contentType: string | undefined;
  readonly aheadUnanswered: AnsweredDispatch | undefined;
}

/**
 * Whether a clean pipelined response shows that its origin keeps responses in order — what the
 * pipelining probe (pipeline-health.ts) counts. Both conditions are needed:
 *
 * - **At risk.** Its request was written while the response ahead of it had not started, so the
 *   server held both at once and could have swapped them. A request written behind a response
 *   already arriving (an image behind the document that names it) cannot be reordered by any
 *   server: it shows only that the origin takes pipelined requests.
 * - **A swap would have shown.** Had the two responses been exchanged, one of them would have
 *   contradicted its request's type (`contentTypeContradicts`): a stylesheet and an image, the
 *   document and an image. Two images (or two responses of unknown type) swapped look exactly
 *   like two in order, so such a pair proves nothing, however often it succeeds.
 *
 * Limit: a server that reorders only some of the time (answering whichever response is ready
 * first) may keep the order of the probe's pair and swap a later one; Firefox's probe took the
 * same risk after one good pipelined transaction.
 */
export function isOrderProof(d: AnsweredDispatch): boolean {
  const a = d.aheadUnanswered;
  if (a === undefined || a.status === undefined || d.status === undefined) return false;
  return contentTypeContradicts(d.request.resourceType, a.contentType, a.status) || contentTypeContradicts(a.request.resourceType, d.contentType, d.status);
}
