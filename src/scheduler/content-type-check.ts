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
