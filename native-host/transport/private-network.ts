import { mapTarget, type HostMapping } from '../../src/targets/host-mapping';
import { addressSpaceOf, isMorePrivate, type AddressSpace } from '../../src/targets/address-space';
import type { AddressCheck } from './connection-gate';
import { NET_CONNECT_LOOKUP, sharedHostCache } from './host-cache';
import { TransportError } from './transport-errors';

export type LookupAll = (hostname: string) => Promise<string[]>;

/** Asked as `net.connect` asks, so the page's own connections take this answer from the host cache. */
const lookupAll: LookupAll = async (hostname) => (await sharedHostCache().lookupAll(hostname, NET_CONNECT_LOOKUP)).map((a) => a.address);

/**
 * The address space of the page a list came from: its host's, or the most public of its
 * addresses (a name that resolves to a public address is a public page). A name that does not
 * resolve counts as public, the strictest choice.
 */
export async function pageAddressSpace(documentUrl: string, resolve: LookupAll = lookupAll): Promise<AddressSpace> {
  const host = new URL(documentUrl).hostname;
  const literal = addressSpaceOf(host);
  if (literal) return literal;
  let spaces: AddressSpace[];
  try {
    spaces = (await resolve(host)).map((a) => addressSpaceOf(a) ?? 'public');
  } catch {
    return 'public';
  }
  if (spaces.length === 0 || spaces.includes('public')) return 'public';
  return spaces.includes('private') ? 'private' : 'local';
}

/**
 * Private Network Access for what a page names (a list from the browser, a page `getlist load`
 * fetches): a page may not make getlist connect to an address more private than its own (a public
 * page to loopback, link-local or private addresses) unless the user allowed it (`howToAllow`).
 * The connection gate (connection-gate.ts) applies it to every address before a connection is
 * attempted and to the address each connection reached, so DNS cannot steer around it.
 * Returns undefined when everything is allowed.
 */
export async function privateNetworkCheck(documentUrl: string, allowed: boolean, resolve?: LookupAll, howToAllow = "in the extension's options"): Promise<AddressCheck | undefined> {
  if (allowed) return undefined;
  const page = await pageAddressSpace(documentUrl, resolve);
  if (page === 'local') return undefined;
  return (address) => {
    const target = addressSpaceOf(address) ?? 'public';
    if (!isMorePrivate(target, page)) return undefined;
    return new TransportError('E_PRIVATE_NETWORK', `${documentUrl} is a ${page} page; it may not make getlist connect to ${address} (${target}). Allow it ${howToAllow} to measure local servers from public pages.`);
  };
}

/**
 * The page's own address as the user's mapping gives it (a local development site mapped to
 * 127.0.0.1 is a local page, so its mapped subresources are not "more private"); DNS otherwise.
 */
export function mappedLookup(documentUrl: string, mappings: readonly HostMapping[]): LookupAll | undefined {
  const url = new URL(documentUrl);
  const target = mapTarget(mappings, url.hostname, Number(url.port || (url.protocol === 'https:' ? 443 : 80)));
  return target.mapped ? async () => [target.host] : undefined;
}
