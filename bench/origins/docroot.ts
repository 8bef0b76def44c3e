/**
 * Writes the corpus as static files, one tree per scheme and origin:
 * `<root>/<http|https>/<origin>/<path>`. The two schemes get separate trees because a page's
 * cross-origin links name the scheme (and, on loopback, the port) they point at; binary bodies
 * are identical and hard-linked between the trees.
 */
import { linkSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { BenchPageBuild, OriginPath } from '../corpus/bench-corpus';
import type { BoundOrigin } from './origin-binding';
import { OriginsError } from './origins-errors';

export const SCHEMES = ['http', 'https'] as const;
export type Scheme = (typeof SCHEMES)[number];

export function docrootOf(root: string, scheme: Scheme, origin: string): string {
  return join(root, scheme, origin);
}

/** Throws `E_ORIGIN_UNBOUND` when a multi-origin page touches an origin that has no binding. */
export function checkPagesBound(builds: readonly BenchPageBuild[], bound: ReadonlyMap<string, BoundOrigin>): void {
  for (const { page } of builds) {
    if (page.singleOrigin) continue;
    const missing = page.origins.filter((o) => !bound.has(o));
    if (missing.length > 0) {
      throw new OriginsError('E_ORIGIN_UNBOUND', `page ${page.name} needs origins that have no binding: ${missing.join(', ')} (bind all of ${page.origins.join(', ')})`);
    }
  }
}

/** Writes every page of `builds` for both schemes; returns the number of files written. */
export function writeDocroots(root: string, builds: readonly BenchPageBuild[], bound: ReadonlyMap<string, BoundOrigin>): number {
  checkPagesBound(builds, bound);
  let files = 0;
  /** File → the page that wrote it and the bytes, to tell a harmless repeat from a collision. */
  const written = new Map<string, { page: string; body: Buffer }>();
  const write = (file: string, page: string, body: Buffer, linkFrom: string | undefined): void => {
    mkdirSync(dirname(file), { recursive: true, mode: 0o755 });
    if (linkFrom !== undefined) linkSync(linkFrom, file);
    else writeFileSync(file, body, { mode: 0o644 });
    written.set(file, { page, body });
    files += 1;
  };
  for (const build of builds) {
    const { page } = build;
    const items: OriginPath[] = [page.document, ...page.resources];
    for (const item of items) {
      // Single-origin pages use root-relative links only: every origin serves the same copy.
      const origins = page.singleOrigin ? [...bound.keys()] : [item.origin];
      for (const origin of origins) {
        let httpFile: string | undefined;
        for (const scheme of SCHEMES) {
          const body = build.bodyOf(item.origin, item.path, (o, linkScheme) => {
            const b = bound.get(o);
            if (b === undefined) throw new OriginsError('E_ORIGIN_UNBOUND', `${page.name} links to unbound origin ${o}`);
            return (linkScheme ?? scheme) === 'http' ? b.httpUrl : b.httpsUrl;
          });
          if (body === undefined) throw new Error(`bug: ${page.name} lists ${item.origin}${item.path} but has no body for it`);
          const file = join(docrootOf(root, scheme, origin), item.path);
          const earlier = written.get(file);
          if (earlier !== undefined) {
            // Two pages served together must not claim one URL for different bytes: one of them
            // would silently load the other's file.
            if (!earlier.body.equals(body.body)) {
              throw new OriginsError('E_ORIGIN_PATH_CONFLICT', `${page.name} and ${earlier.page} both serve ${origin}${item.path} with different bytes; serve them from different links or give their files distinct paths`);
            }
            continue;
          }
          const isText = /^text\//.test(body.contentType);
          write(file, page.name, body.body, !isText && scheme === 'https' ? httpFile : undefined);
          httpFile = file;
        }
      }
    }
  }
  return files;
}
