/**
 * A page structure (page-structure.ts) from requests that each name the one request whose arrival
 * let the client find it: the document is level 1, every other request one level below its
 * parent. The extension builds one from a recorded browser load (src/page/diagnosis), the CLI from
 * a `getlist load` run (run-bound.ts). Pure.
 */
import { summarisePage, type DiscoveryRule, type ModelRequest, type PageStructure } from './page-structure';

export interface ParentedRequest {
  url: string;
  origin: string;
  size: number;
  /** Index of the request that let the client find this one; undefined for the document. Always an earlier index. */
  parent: number | undefined;
  discovery: DiscoveryRule;
}

export function parentedStructure(name: string, requests: readonly ParentedRequest[]): PageStructure {
  const out: ModelRequest[] = [];
  const keys = new Set<string>();
  for (const [i, r] of requests.entries()) {
    // The same URL fetched twice is two requests: each key names one.
    const key = keys.has(r.url) ? `${r.url}#${i}` : r.url;
    keys.add(key);
    const parent = r.parent === undefined ? undefined : out[r.parent];
    out.push({
      key, origin: r.origin, size: r.size, level: parent === undefined ? 1 : parent.level + 1,
      parents: r.parent === undefined ? [] : [r.parent], discovery: r.discovery,
    });
  }
  return summarisePage(name, out);
}
