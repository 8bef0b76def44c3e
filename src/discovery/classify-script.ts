import { normalizeKeyword } from './ascii';
import type { Attributes, ResourceReference } from './reference';
import type { ScriptMode } from './types';

/**
 * The HTML Standard's "JavaScript MIME type essence match" list. The match is on the whole
 * trimmed, lower-cased `type` string, so `text/javascript; charset=utf-8` is NOT a match and such a
 * script is never fetched (browsers agree).
 */
const JAVASCRIPT_MIME_TYPES: ReadonlySet<string> = new Set([
  'application/ecmascript',
  'application/javascript',
  'application/x-ecmascript',
  'application/x-javascript',
  'text/ecmascript',
  'text/javascript',
  'text/javascript1.0',
  'text/javascript1.1',
  'text/javascript1.2',
  'text/javascript1.3',
  'text/javascript1.4',
  'text/javascript1.5',
  'text/jscript',
  'text/livescript',
  'text/x-ecmascript',
  'text/x-javascript',
]);

/**
 * Classifies `<script src>`. Nothing for: inline scripts (no `src`), data blocks (`type` neither a
 * JavaScript MIME type nor `module`, e.g. `application/ld+json`, `text/template`, `importmap`), and
 * `nomodule` classic scripts, which every module-capable browser — all we run in — skips.
 *
 * Mode per the HTML Standard: `type=module` is deferred by default (`module`); otherwise `async`
 * wins over `defer`; neither is a parser-blocking `sync` script, the only kind classed `blocking`.
 */
export function classifyScript(attribs: Attributes): ResourceReference[] {
  const src = attribs.src;
  if (src === undefined) return [];
  const type = scriptType(attribs);
  const isModule = type === 'module';
  if (!isModule && type !== '' && !JAVASCRIPT_MIME_TYPES.has(type)) return [];
  if (!isModule && attribs.nomodule !== undefined) return [];
  const mode: ScriptMode = isModule ? 'module' : attribs.async !== undefined ? 'async' : attribs.defer !== undefined ? 'defer' : 'sync';
  return [{ value: src, kind: 'script', priority: mode === 'sync' ? 'blocking' : 'script', attribute: 'src', scriptMode: mode }];
}

/** The effective type string: `type`, else the legacy `language` as `text/<language>`, else ''. */
function scriptType(attribs: Attributes): string {
  if (attribs.type !== undefined) return normalizeKeyword(attribs.type);
  const language = normalizeKeyword(attribs.language);
  return language === '' ? '' : `text/${language}`;
}
