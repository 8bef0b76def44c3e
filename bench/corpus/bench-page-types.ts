/**
 * Shapes of the benchmark corpus manifest: pages spread over several named origins, each resource
 * tagged with where a browser first learns of it. Bodies come from {@link BenchPageBuild.bodyOf},
 * rendered for one way of addressing the origins (names, or loopback address:port pairs).
 */
import { CodedError } from '../../src/core/coded-error';
import type { CorpusBody, ResourceKind } from '../../native-host/demo/corpus-types';
import type { GifPixels } from '../../native-host/demo/synth-bytes';

export type { CorpusBody, ResourceKind } from '../../native-host/demo/corpus-types';

/**
 * How a browser finds a resource: in the document's markup, only inside a stylesheet (`url()`,
 * `@font-face`), or only when a script runs (here: after DOMContentLoaded).
 */
export type BenchDiscoveredBy = 'html' | 'css' | 'script';

/** A path on a named origin, e.g. `{ origin: 'static.example.test', path: '/css/site-1.css' }`. */
export interface OriginPath {
  /** Host name of the origin (no scheme, no port). */
  readonly origin: string;
  /** Root-relative path. */
  readonly path: string;
}

export interface BenchResource extends OriginPath {
  /** Exact `Content-Type` the origins send (nginx: by extension, `charset utf-8` on text). */
  readonly contentType: string;
  /** Exact body size in bytes, the same however the origins are addressed. */
  readonly size: number;
  readonly kind: ResourceKind;
  readonly discoveredBy: BenchDiscoveredBy;
  /** The document, stylesheet or inline script's document whose text names this resource. */
  readonly referencedFrom: OriginPath;
  /** True for `<head>` stylesheets and synchronous `<head>` scripts. */
  readonly renderBlocking: boolean;
  /**
   * An image's picture size, the size the page shows it at (synth-bytes.ts `gifPictureBytes`); absent:
   * a 1×1 GIF (tracking pixels, icons, and images too small a body to hold their picture).
   */
  readonly pixels?: GifPixels;
}

export interface BenchDocument extends OriginPath {
  readonly contentType: string;
  readonly size: number;
}

export interface BenchPage {
  /** e.g. `almanac-median`, `pm95-2544-10`, `mcmanus-159`. */
  readonly name: string;
  readonly title: string;
  /** Where the page's shape comes from (paper, chapter). */
  readonly source: string;
  /** Every origin the page touches; the document's comes first. */
  readonly origins: readonly string[];
  readonly document: BenchDocument;
  /** Every subresource, excluding the document. A full load makes `resources.length + 1` requests. */
  readonly resources: readonly BenchResource[];
  /**
   * True when every link is root-relative (the pm95 and mcmanus pages): such a page works from any
   * one origin, and the origin servers put it on every origin they run.
   */
  readonly singleOrigin: boolean;
  /**
   * Real-shaped pages mix schemes, as real pages do: each origin listed here is linked under its
   * own scheme (`http` = HTTP/1.1, `https` = h2 where the client offers it), and the document is
   * loaded over `documentScheme`. Absent: every link takes the document's scheme.
   */
  readonly schemes?: Readonly<Record<string, 'http' | 'https'>>;
  readonly documentScheme?: 'http' | 'https';
}

/**
 * Base URL (scheme, host, optional port; no trailing slash) under which a client reaches `origin`,
 * e.g. `https://static.example.test` or `http://127.0.0.1:40123`.
 */
export type OriginBaseUrl = (origin: string, scheme?: 'http' | 'https') => string;

/** One page's manifest plus a source of its bodies. */
export interface BenchPageBuild {
  readonly page: BenchPage;
  /**
   * The body of `path` on `origin` (the document included), with every cross-origin link written
   * through `baseUrl`; undefined when the page has no such resource. Sizes never depend on
   * `baseUrl` (bodies are padded to the manifest size); base URLs longer than
   * {@link MAX_BASE_URL_LENGTH} are refused.
   */
  bodyOf(origin: string, path: string, baseUrl: OriginBaseUrl): CorpusBody | undefined;
}

/** Longest base URL a body can be rendered with: `https://[ipv6]:65535` fits. */
export const MAX_BASE_URL_LENGTH = 64;

export class BenchCorpusError extends CodedError<'E_BENCH_UNKNOWN_PAGE' | 'E_BENCH_BASE_URL'> {
  override readonly name = 'BenchCorpusError';
}
