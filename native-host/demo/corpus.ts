/**
 * The deterministic page corpus behind `getlist demo`.
 *
 * Pages are named:
 * - `pm95-<imageSize>-<imageCount>` — Padmanabhan & Mogul 1995, figure 6-1 (see page-pm95.ts);
 *   the demo lists sizes 2544 and 45566 × counts 1, 5, 10, 20, 40, and any other size/count
 *   within {@link PM95_LIMITS} can be built by name too;
 * - `pm95` — alias of `pm95-2544-10`, the demo default;
 * - `mcmanus-159` — McManus 2011 newsletter page (see page-mcmanus-159.ts).
 *
 * Invariant: a page's manifest and bytes are a pure function of its name (seeded PRNG), so
 * every build is identical and tests can assert exact sizes and counts.
 */
import { CodedError } from '../../src/core/coded-error';
import { CorpusBody, CorpusPage, PageBuild } from './corpus-types';
import { buildMcmanus159, MCMANUS_159_NAME } from './page-mcmanus-159';
import { buildPm95, pm95Name, PM95_IMAGE_COUNTS, PM95_IMAGE_SIZES } from './page-pm95';
import { MIN_GIF_SIZE } from './synth-bytes';

export type { CorpusBody, CorpusPage, CorpusResource, DiscoveredBy, ResourceKind } from './corpus-types';
export { PM95_IMAGE_COUNTS, PM95_IMAGE_SIZES } from './page-pm95';
export { MCMANUS_159_NAME } from './page-mcmanus-159';

/** Bounds on constructible `pm95-<size>-<count>` pages: keeps one page under ~26 MB. */
export const PM95_LIMITS = { minImageSize: MIN_GIF_SIZE, maxImageSize: 262_144, maxImageCount: 100 } as const;

export const PAGE_ALIASES: Readonly<Record<string, string>> = { pm95: pm95Name(2544, 10) };

/** The page `getlist demo` loads when none is named. */
export const DEFAULT_DEMO_PAGE = 'pm95';

/** Pages listed by {@link Corpus.pages}, in this order. */
export const DEMO_PAGE_NAMES: readonly string[] = [
  ...PM95_IMAGE_SIZES.flatMap((size) => PM95_IMAGE_COUNTS.map((count) => pm95Name(size, count))),
  MCMANUS_159_NAME,
];

/** How many pages outside {@link DEMO_PAGE_NAMES} a corpus keeps built at once. */
const EXTRA_PAGE_CACHE = 8;

export class DemoPageError extends CodedError<'E_DEMO_UNKNOWN_PAGE' | 'E_DEMO_PAGE_PARAMS'> {
  override readonly name = 'DemoPageError';
}

/** Resolves aliases and validates `name`; returns the canonical page name or throws {@link DemoPageError}. */
export function canonicalPageName(name: string): string {
  const resolved = PAGE_ALIASES[name] ?? name;
  if (resolved === MCMANUS_159_NAME) return resolved;
  const m = /^pm95-(\d{1,9})-(\d{1,9})$/.exec(resolved);
  if (m === null) {
    throw new DemoPageError('E_DEMO_UNKNOWN_PAGE',
      `unknown demo page "${name}" (try ${[...Object.keys(PAGE_ALIASES), ...DEMO_PAGE_NAMES].join(', ')})`);
  }
  const size = Number(m[1]);
  const count = Number(m[2]);
  if (pm95Name(size, count) !== resolved) {
    throw new DemoPageError('E_DEMO_UNKNOWN_PAGE', `demo page "${name}" is not canonical: use ${pm95Name(size, count)}`);
  }
  const { minImageSize, maxImageSize, maxImageCount } = PM95_LIMITS;
  if (size < minImageSize || size > maxImageSize || count < 1 || count > maxImageCount) {
    throw new DemoPageError('E_DEMO_PAGE_PARAMS',
      `demo page "${name}": image size must be ${minImageSize}..${maxImageSize} and count 1..${maxImageCount}`);
  }
  return resolved;
}

/** Builds one page afresh (manifest now, binary bodies lazily). Throws {@link DemoPageError}. */
export function buildPage(name: string): PageBuild {
  const canonical = canonicalPageName(name);
  if (canonical === MCMANUS_159_NAME) return buildMcmanus159();
  const [, size, count] = canonical.split('-');
  return buildPm95(Number(size), Number(count));
}

export interface Corpus {
  /** The pages of {@link DEMO_PAGE_NAMES}, in that order. */
  readonly pages: readonly CorpusPage[];
  /** Any listed or constructible page, by name or alias. Throws {@link DemoPageError}. */
  getPage(name: string): CorpusPage;
  /**
   * The body served at `path` (a query string is ignored), for any listed or constructible
   * page; undefined when no page has that path.
   */
  getBody(path: string): CorpusBody | undefined;
}

export function buildCorpus(): Corpus {
  const listed = new Map<string, PageBuild>(DEMO_PAGE_NAMES.map((n) => [n, buildPage(n)]));
  const extra = new Map<string, PageBuild>();

  function build(canonical: string): PageBuild {
    const hit = listed.get(canonical) ?? extra.get(canonical);
    if (hit !== undefined) return hit;
    const fresh = buildPage(canonical);
    extra.set(canonical, fresh);
    // Evict the oldest so requests for many distinct names cannot grow memory without bound.
    if (extra.size > EXTRA_PAGE_CACHE) extra.delete(extra.keys().next().value as string);
    return fresh;
  }

  return {
    pages: [...listed.values()].map((b) => b.page),
    getPage: (name) => build(canonicalPageName(name)).page,
    getBody(path) {
      const clean = path.split(/[?#]/, 1)[0] ?? '';
      const first = /^\/([^/]+)\//.exec(clean)?.[1];
      if (first === undefined) return undefined;
      let canonical: string;
      try {
        canonical = canonicalPageName(first);
      } catch (err) {
        if (err instanceof DemoPageError) return undefined;
        throw err;
      }
      // Aliases name pages but are not path prefixes: /pm95/… is not a page path.
      if (canonical !== first) return undefined;
      return build(canonical).bodyOf(clean);
    },
  };
}

let shared: Corpus | undefined;

/** The process-wide corpus, built on first use. */
export function defaultCorpus(): Corpus {
  shared ??= buildCorpus();
  return shared;
}

/** {@link Corpus.getPage} on the process-wide corpus. */
export function getPage(name: string): CorpusPage {
  return defaultCorpus().getPage(name);
}

/** {@link Corpus.getBody} on the process-wide corpus. */
export function getBody(path: string): CorpusBody | undefined {
  return defaultCorpus().getBody(path);
}
