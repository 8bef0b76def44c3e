/**
 * The ideal-hints variant of a bench page (the bound on what hinting can gain): the same page, the
 * same subresources, but a document whose `<head>` opens with the hints a perfect hinter would
 * give — every origin other than the document's preconnected (once without and, where fonts come
 * from it, once with `crossorigin`: separate socket pools), then every late-discovered resource
 * (named only in CSS or by a script; not the icon) preloaded with the `as` and CORS mode its
 * consuming request takes. No caps, no slow-link rule, fonts included: the bound on what any
 * hinting can do for page complete where the late resources are few against the link, what it
 * costs first paint shown beside it. Not the best subset where preloads compete with the page's
 * own bytes (a bandwidth-bound link, a page with large script-inserted ads): a selection can beat it.
 *
 * Served at `<document path>` with `.html` → `.ideal.html`, under the page name `<page>+ideal`.
 *
 * The `+all` variant (`.all.html`) is the wider bound: the same preconnects, and *every*
 * subresource preloaded (parser-found ones too; the icon aside), each with `fetchpriority=high`.
 * It measures what the late-only bound leaves out: requests the browser finds early but holds —
 * Chromium's resource scheduler keeps low-priority requests (images, async and deferred scripts)
 * waiting while render-blocking ones are in flight, which on real-news is most of what ends late
 * (docs/extension.md, "Benchmark", measures both bounds). Scripts are preloaded `as=script` without `crossorigin`: the corpus'
 * scripts are classic and credentialed, so each preload is matched.
 * Invariants: the variant makes exactly the base page's requests (the document's URL aside), its
 * subresource bytes are the base page's (shared files), and the document keeps its size when its
 * trailing padding comment can absorb the hints (the almanac and real-shaped pages); a document
 * without one (the demo pages: mcmanus-159, +216 bytes) grows by the hints, and the manifest's
 * `document.size` stays the base page's.
 */
import type { BenchPage, BenchPageBuild, BenchResource, OriginBaseUrl } from './bench-page-types';

export const IDEAL_SUFFIX = '+ideal';
export const ALL_SUFFIX = '+all';

/** Which hints a variant's head carries: late resources only (`+ideal`), or every subresource at high priority (`+all`). */
export type HintVariant = 'ideal' | 'all';
const SUFFIX: Readonly<Record<HintVariant, string>> = { ideal: IDEAL_SUFFIX, all: ALL_SUFFIX };

/** `real-news+ideal` → `real-news` (`ideal`), `real-news+all` → `real-news` (`all`); undefined for a name without a suffix. */
export function variantOf(name: string): { base: string; variant: HintVariant } | undefined {
  for (const variant of ['ideal', 'all'] as const) if (name.endsWith(SUFFIX[variant])) return { base: name.slice(0, -SUFFIX[variant].length), variant };
  return undefined;
}

/** The `as` of a preload for each resource kind a page can find late. */
const AS_BY_KIND: Readonly<Record<string, string>> = { stylesheet: 'style', script: 'script', image: 'image', font: 'font' };

/** The resources a perfect hinter preloads: found only through CSS or script, icons aside. */
export function idealPreloads(page: BenchPage): BenchResource[] {
  return page.resources.filter((r) => r.discoveredBy !== 'html' && AS_BY_KIND[r.kind] !== undefined);
}

/** `[origin, crossorigin]` pairs a perfect hinter preconnects, in page order. */
export function idealPreconnects(page: BenchPage): Array<[string, boolean]> {
  if (page.singleOrigin) return [];
  const out: Array<[string, boolean]> = [];
  const seen = new Set<string>();
  for (const r of page.resources) {
    if (r.origin === page.document.origin) continue;
    const id = `${r.kind === 'font'} ${r.origin}`;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push([r.origin, r.kind === 'font']);
  }
  return out;
}

/** The `+all` variant's preloads: every subresource a preload can take the form of, in page order. */
export function allPreloads(page: BenchPage): BenchResource[] {
  return page.resources.filter((r) => AS_BY_KIND[r.kind] !== undefined);
}

/** The `<link>` elements, with each cross-origin href written through `baseUrl`. */
export function idealHintMarkup(page: BenchPage, baseUrl: OriginBaseUrl, variant: HintVariant = 'ideal'): string {
  const base = (origin: string) => (page.singleOrigin ? '' : baseUrl(origin, page.schemes?.[origin]));
  const priority = variant === 'all' ? ' fetchpriority="high"' : '';
  const links = [
    ...idealPreconnects(page).map(([o, cors]) => `<link rel="preconnect" href="${base(o)}"${cors ? ' crossorigin' : ''}>`),
    ...(variant === 'all' ? allPreloads(page) : idealPreloads(page)).map((r) => {
      const as = AS_BY_KIND[r.kind] as string;
      const type = r.kind === 'font' ? ` type="${r.contentType}"` : '';
      return `<link rel="preload" href="${base(r.origin)}${r.path}" as="${as}"${type}${r.kind === 'font' ? ' crossorigin' : ''}${priority}>`;
    }),
  ];
  return links.join('\n');
}

/** `/x/index.html` → `/x/index.ideal.html` (or `.all.html`). */
function variantPath(path: string, variant: HintVariant): string {
  return /\.html$/.test(path) ? path.replace(/\.html$/, `.${variant}.html`) : `${path}.${variant}.html`;
}

/**
 * Puts `markup` after the document's `<meta charset>` (else right after `<head>`) and takes as many
 * bytes out of the trailing `<!--…-->` padding as it can, keeping two bytes of comment body.
 */
export function withHeadMarkup(html: string, markup: string): string {
  if (markup === '') return html;
  const at = /<meta charset="[^"]*">/i.exec(html) ?? /<head[^>]*>/i.exec(html);
  if (!at) throw new Error('ideal-hints: the document has no <head>');
  const cut = at.index + at[0].length;
  const inserted = `${html.slice(0, cut)}\n${markup}${html.slice(cut)}`;
  const pad = /<!--([^]*)-->$/.exec(inserted);
  if (!pad || pad[1] === undefined) return inserted;
  const trim = Math.min(markup.length + 1, pad[1].length - 2);
  return trim <= 0 ? inserted : `${inserted.slice(0, pad.index + 4)}${pad[1].slice(trim)}-->`;
}

/** The `+ideal` (or `+all`) variant of `base` (see the file comment). */
export function idealVariant(base: BenchPageBuild, variant: HintVariant = 'ideal'): BenchPageBuild {
  const doc = base.page.document;
  const path = variantPath(doc.path, variant);
  const page: BenchPage = { ...base.page, name: `${base.page.name}${SUFFIX[variant]}`, title: `${base.page.title} (${variant === 'all' ? 'every subresource preloaded' : 'ideal hints'})`, document: { ...doc, path } };
  return {
    page,
    bodyOf(origin, p, baseUrl) {
      if (p !== path) return base.bodyOf(origin, p, baseUrl);
      if (!base.page.singleOrigin && origin !== doc.origin) return undefined;
      const body = base.bodyOf(doc.origin, doc.path, baseUrl);
      if (!body) return undefined;
      const html = withHeadMarkup(body.body.toString('latin1'), idealHintMarkup(base.page, baseUrl, variant));
      return { contentType: body.contentType, body: Buffer.from(html, 'latin1') };
    },
  };
}
