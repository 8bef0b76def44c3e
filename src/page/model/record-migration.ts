import type { ObservedRequest, PageRecord, RedirectHop } from './page-record';

/**
 * How earlier versions stored a request's redirects, beside the header listener's `redirects`:
 * the URLs redirected from, their statuses (0 where a hop gave none) and, in Firefox, the hops'
 * `responseSize`s summed.
 */
interface LegacyRedirects {
  redirectedFrom?: unknown;
  redirectStatuses?: unknown;
  redirectHopBytes?: unknown;
}

/**
 * Brings a stored record of an earlier version to the current shape, in place: a request's
 * redirects become the one `RedirectHop[]`. Records already current come back unchanged.
 */
export function migrateRecord(page: PageRecord): PageRecord {
  for (const r of page.requests) if (typeof r === 'object' && r !== null) migrateRedirects(r as ObservedRequest & LegacyRedirects);
  return page;
}

function migrateRedirects(r: ObservedRequest & LegacyRedirects): void {
  if (r.redirectedFrom === undefined && r.redirectStatuses === undefined && r.redirectHopBytes === undefined) return;
  const from = Array.isArray(r.redirectedFrom) ? r.redirectedFrom.filter((u): u is string => typeof u === 'string') : [];
  const statuses = Array.isArray(r.redirectStatuses) ? r.redirectStatuses : [];
  // The header listener's hops: the same URLs in the same order, where it saw each hop.
  const withHeaders = Array.isArray(r.redirects) ? r.redirects : [];
  let next = 0;
  const hops: RedirectHop[] = [];
  from.forEach((url, i) => {
    const seen = withHeaders[next]?.url === url ? withHeaders[next++] : undefined;
    // Without the header listener's times, the hop's are not known: zero-length where it began.
    const startedAt = seen?.startedAt ?? hops.at(-1)?.endedAt ?? r.startedAt;
    const hop: RedirectHop = { ...seen, url, startedAt, endedAt: seen?.endedAt ?? startedAt, redirectURL: from[i + 1] ?? r.url };
    const status: unknown = statuses[i];
    if (typeof status === 'number' && status > 0) hop.statusCode = status;
    hops.push(hop);
  });
  // Only the sum was kept: the first hop carries it, so every total reads as before (a sum of 0
  // was Firefox measuring nothing: page-bytes.ts `exposedSize`).
  if (typeof r.redirectHopBytes === 'number' && r.redirectHopBytes > 0) hops.forEach((hop, i) => (hop.responseSize = i === 0 ? (r.redirectHopBytes as number) : 0));
  if (hops.length > 0) r.redirects = hops;
  delete r.redirectedFrom;
  delete r.redirectStatuses;
  delete r.redirectHopBytes;
}
