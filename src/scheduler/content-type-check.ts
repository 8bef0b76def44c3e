/**
 * A weak desync signal (Firefox's pipelining "yellow" state): a successful response whose
 * `Content-Type` contradicts what was asked for — an HTML page where an image, script, stylesheet
 * or font was requested — may be a response meant for another request. It is not reason enough to
 * discard the response (misconfigured servers do this), but it is reason enough to stop
 * pipelining to the origin, where a shifted response would look exactly like this.
 *
 * `kind` is the request's tag (the discovery kind or the browser's resource type).
 */
const EXPECTS_SUBRESOURCE = new Set(['image', 'img', 'script', 'stylesheet', 'style', 'font', 'media', 'video', 'audio', 'imageset']);

export function contentTypeContradicts(kind: string | undefined, contentType: string | undefined, status: number): boolean {
  if (kind === undefined || contentType === undefined || status < 200 || status >= 300) return false;
  if (!EXPECTS_SUBRESOURCE.has(kind)) return false;
  const type = contentType.split(';')[0]?.trim().toLowerCase();
  return type === 'text/html' || type === 'application/xhtml+xml';
}
