/**
 * The benchmark corpus: the demo's single-origin pages (`pm95-<size>-<N>`, `mcmanus-159`, built by
 * native-host/demo/corpus.ts) plus the multi-origin `almanac-median` and `almanac-p90` pages
 * (page-almanac.ts), all under one manifest shape with a per-resource origin.
 *
 * Invariant: a page's manifest and bytes are a pure function of its name (and of the base-URL
 * mapping for link text), so every build is identical and tests can assert exact sizes.
 */
import { buildPage, canonicalPageName, DEMO_PAGE_NAMES, DemoPageError } from '../../native-host/demo/corpus';
import type { CorpusPage } from '../../native-host/demo/corpus-types';
import { ALMANAC_ORIGINS, ALMANAC_SHAPES } from './almanac-shape';
import { BenchCorpusError, type BenchPage, type BenchPageBuild } from './bench-page-types';
import { buildAlmanacPage } from './page-almanac';
import { buildRealPage, REAL_PAGE_NAMES } from './page-real';
import { idealVariant, variantOf } from './ideal-hints';

export * from './bench-page-types';
export { ALMANAC_MEDIAN, ALMANAC_ORIGINS, ALMANAC_P90, ALMANAC_SOURCE } from './almanac-shape';

/** Every page the benchmarks name, multi-origin ones first. */
export const BENCH_PAGE_NAMES: readonly string[] = [...ALMANAC_SHAPES.map((s) => s.name), ...REAL_PAGE_NAMES, ...DEMO_PAGE_NAMES];

/** The origin single-origin pages are listed under (they are served from every origin). */
export const PRIMARY_ORIGIN = ALMANAC_ORIGINS.www;

const PAPER_SOURCES: Readonly<Record<string, string>> = {
  pm95: 'Padmanabhan & Mogul 1995, "Improving HTTP Latency", figure 6-1',
  mcmanus: 'McManus 2011, "The Apex of Pipelines"',
};

function fromDemoPage(p: CorpusPage): BenchPage {
  return {
    name: p.name,
    title: p.title,
    source: PAPER_SOURCES[p.name.split('-')[0] ?? ''] ?? p.title,
    origins: [PRIMARY_ORIGIN],
    document: { origin: PRIMARY_ORIGIN, path: p.path, contentType: 'text/html; charset=utf-8', size: p.documentSize },
    resources: p.resources.map((r) => ({
      origin: PRIMARY_ORIGIN,
      path: r.path,
      contentType: r.contentType,
      size: r.size,
      kind: r.kind,
      discoveredBy: r.discoveredBy,
      referencedFrom: { origin: PRIMARY_ORIGIN, path: r.referencedFrom },
      renderBlocking: r.renderBlocking,
    })),
    singleOrigin: true,
  };
}

/**
 * Builds one page by name (`almanac-median`, `almanac-p90`, or any demo page name or alias; any of
 * them with `+ideal`: the variant whose head carries the ideal hints, or `+all`: every subresource
 * preloaded at high priority, ideal-hints.ts).
 * Throws {@link BenchCorpusError} `E_BENCH_UNKNOWN_PAGE` for other names.
 */
export function buildBenchPage(name: string): BenchPageBuild {
  const hinted = variantOf(name);
  if (hinted !== undefined) return idealVariant(benchPageBuild(hinted.base), hinted.variant);
  const shape = ALMANAC_SHAPES.find((s) => s.name === name);
  if (shape !== undefined) return buildAlmanacPage(shape);
  const real = buildRealPage(name);
  if (real !== undefined) return real;
  let canonical: string;
  try {
    canonical = canonicalPageName(name);
  } catch (err) {
    if (!(err instanceof DemoPageError)) throw err;
    throw new BenchCorpusError('E_BENCH_UNKNOWN_PAGE', `unknown bench page "${name}" (try ${BENCH_PAGE_NAMES.join(', ')}): ${err.message}`);
  }
  const demo = buildPage(canonical);
  const page = fromDemoPage(demo.page);
  // Root-relative links: the same bytes on every origin, whatever the base URLs.
  return { page, bodyOf: (_origin, path) => demo.bodyOf(path) };
}

const cache = new Map<string, BenchPageBuild>();

/** The manifest of a page by name, built once per process. Throws {@link BenchCorpusError}. */
export function getBenchPage(name: string): BenchPage {
  return benchPageBuild(name).page;
}

/** {@link buildBenchPage}, memoised per process. */
export function benchPageBuild(name: string): BenchPageBuild {
  let hit = cache.get(name);
  if (hit === undefined) {
    hit = buildBenchPage(name);
    cache.set(name, hit);
  }
  return hit;
}

/** Requests a full load makes: the document and every subresource. */
export function requestCount(page: BenchPage): number {
  return page.resources.length + 1;
}

/** Bytes of every response body of a full load, the document included. */
export function pageBytes(page: BenchPage): number {
  return page.resources.reduce((sum, r) => sum + r.size, page.document.size);
}
