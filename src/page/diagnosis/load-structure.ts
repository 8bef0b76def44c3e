/**
 * A recorded load as the lower-bound model's page structure (src/bound/page-structure.ts), and
 * the model's inputs this load gives: which origins paid TLS, and how many connections per origin
 * the browser may keep open. Pure.
 */
import type { BoundOptions } from '../../bound/lower-bound';
import { parentedStructure } from '../../bound/parented-structure';
import type { PageStructure } from '../../bound/page-structure';
import type { RecordedLoad } from './recorded-load';

/** Every browser's HTTP/1.1 limit per host (the model's default). */
const HTTP1_CONNECTIONS = 6;
/**
 * Over HTTP/2 and HTTP/3 a browser keeps one connection per origin for credentialed requests and
 * one more for anonymous ones (Fetch, "obtain a connection": the pool is keyed by credentials), so
 * a crossorigin font may take a second.
 */
const MULTIPLEXED_CONNECTIONS = 2;

/**
 * The load's structure; with `preloaded`, that request named by the document instead (a preload
 * in its head, found at its first byte: the what-if of suggestions.ts).
 */
export function loadStructure(load: RecordedLoad, name: string, preloaded?: number): PageStructure {
  return parentedStructure(name, load.requests.map((r, i) => (i === preloaded ? { ...r, parent: 0, discovery: 'first-byte' } : r)));
}

/** The model's options for this load: TLS on its https origins, connections by protocol. */
export function loadBoundOptions(load: RecordedLoad): Pick<BoundOptions, 'tls' | 'connectionsPerOrigin'> {
  const tls = new Set(load.requests.filter((r) => r.url.startsWith('https:')).map((r) => r.origin));
  const multiplexed = load.requests.every((r) => r.protocol === 'h2' || r.protocol === 'h3');
  return { tls, connectionsPerOrigin: multiplexed ? MULTIPLEXED_CONNECTIONS : HTTP1_CONNECTIONS };
}
