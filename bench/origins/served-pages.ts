import { BENCH_PAGE_NAMES, benchPageBuild, type BenchPageBuild } from '../corpus/bench-corpus';
import type { Scheme } from './docroot';
import type { BoundOrigin } from './origin-binding';
import type { TlsMaterial } from './tls-material';
import { OriginsError } from './origins-errors';

/** The pages a set of origins serves: those named, or every corpus page whose origins are all bound. */
export function selectPages(names: readonly string[] | undefined, bound: ReadonlySet<string>): BenchPageBuild[] {
  if (names !== undefined) return names.map((n) => benchPageBuild(n));
  return BENCH_PAGE_NAMES.map((n) => benchPageBuild(n)).filter((b) => b.page.singleOrigin || b.page.origins.every((o) => bound.has(o)));
}

/** A served page's document URL on its own origin (a single-origin page: on `origin`, or the first bound). */
export function servedPageUrl(builds: readonly BenchPageBuild[], bound: readonly BoundOrigin[], name: string, scheme: Scheme, origin?: string): string {
  const build = builds.find((b) => b.page.name === name);
  if (build === undefined) throw new OriginsError('E_ORIGIN_UNBOUND', `page ${name} is not served here (served: ${builds.map((b) => b.page.name).join(', ')})`);
  const want = origin ?? (build.page.singleOrigin ? (bound[0]?.origin ?? '') : build.page.document.origin);
  const host = bound.find((b) => b.origin === want);
  if (host === undefined) throw new OriginsError('E_ORIGIN_UNBOUND', `origin ${origin ?? build.page.document.origin} is not bound`);
  return `${scheme === 'http' ? host.httpUrl : host.httpsUrl}${build.page.document.path}`;
}

/**
 * What every server of a set of origins answers alike (nginx's and each zoo member's): its
 * bindings, base URLs, page URLs and the TLS material to trust.
 */
export function servedFace(builds: readonly BenchPageBuild[], bound: readonly BoundOrigin[], tls: TlsMaterial) {
  return {
    origins: bound,
    urls: Object.fromEntries(bound.map((b) => [b.origin, { http: b.httpUrl, https: b.httpsUrl }])),
    pageUrl(name: string, scheme: Scheme = 'https', origin?: string): string {
      return servedPageUrl(builds, bound, name, scheme, origin);
    },
    caPem: tls.caPem,
    caPath: tls.caPath,
    spkiHash: tls.spkiHash,
    caSpkiHash: tls.caSpkiHash,
  };
}
