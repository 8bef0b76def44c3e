import type { PageRecord } from '../model/page-record';
import { harHttpVersion, isoDate, mimeTypeOf, queryString, round, type HarEntry, type HarPage, type HarTimings } from './har-format';
import { phasesFromRecord, phaseTotals, type PhaseKind } from './waterfall/phases';
import type { ReplayResultLike } from './waterfall/rows';

/**
 * Each replayed strategy as a HAR page of its own (`<pageId>:replay:<strategy>`), its entries the
 * host's per-request records: `connection` is the host's connection id, `serverIPAddress` its
 * handshake's remote address, phases as the waterfall draws them (the connection's DNS, connect
 * and TLS on the request that opened it). `onLoad` is the last byte: a replay has no load event.
 */
export function replayPages(page: PageRecord): { pages: HarPage[]; entries: HarEntry[] } {
  const pages: HarPage[] = [];
  const entries: HarEntry[] = [];
  for (const message of page.replay?.results ?? []) {
    const result = message as ReplayResultLike;
    const id = `${page.pageId}:replay:${result.strategy}`;
    const t0 = result.startedAt ?? page.replay?.startedAt ?? page.startedAt;
    const lastByte = result.requests.reduce((m, r) => Math.max(m, r.doneMs), 0);
    pages.push({ startedDateTime: isoDate(t0), id, title: `${page.url} (getlist replay: ${result.strategy})`, pageTimings: { onContentLoad: -1, onLoad: round(lastByte) } });
    const handshakes = new Map((result.handshakes ?? []).map((h) => [h.connectionId, h]));
    const opened = new Set<number>();
    const bySent = [...result.requests].sort((a, b) => (a.sentMs ?? Infinity) - (b.sentMs ?? Infinity));
    const openers = new Set(bySent.filter((r) => r.connectionId !== null && !opened.has(r.connectionId) && opened.add(r.connectionId)));
    for (const r of result.requests) {
      const hs = r.connectionId === null ? undefined : handshakes.get(r.connectionId);
      const phases = phasesFromRecord(r, openers.has(r) && hs && result.startedAt !== undefined ? { startMs: hs.startedAt - result.startedAt, record: hs } : undefined);
      const timings = harTimings(phaseTotals(phases));
      const httpVersion = harHttpVersion(r.protocol ?? undefined);
      const entry: HarEntry = {
        pageref: id,
        startedDateTime: isoDate(t0 + r.discoveredMs),
        time: round([timings.blocked, timings.dns, timings.connect, timings.send, timings.wait, timings.receive].filter((v) => v > 0).reduce((a, b) => a + b, 0)),
        request: { method: r.method, url: r.url, httpVersion, cookies: [], headers: [], queryString: queryString(r.url), headersSize: -1, bodySize: -1 },
        response: {
          status: r.status ?? 0,
          statusText: r.error ? r.error.code : '',
          httpVersion,
          cookies: [],
          headers: [],
          content: { size: r.decodedBytes, ...(r.decodedBytes !== r.bytes ? { compression: r.decodedBytes - r.bytes } : {}), mimeType: mimeTypeOf(r.resourceType ?? 'other') },
          redirectURL: '',
          headersSize: -1,
          bodySize: r.error ? -1 : r.bytes,
        },
        cache: {},
        timings,
        _resourceType: r.resourceType ?? 'other',
      };
      if (r.connectionId !== null) entry.connection = String(r.connectionId);
      if (hs?.remoteAddress) entry.serverIPAddress = hs.remoteAddress;
      entries.push(entry);
    }
  }
  return { pages, entries };
}

/** Waterfall phase totals → HAR timings (`connect` includes `ssl`; -1 for a phase that did not happen). */
function harTimings(t: Partial<Record<PhaseKind, number>>): HarTimings {
  const opt = (v: number | undefined) => (v === undefined ? -1 : round(v));
  const connect = t.connect === undefined && t.tls === undefined ? -1 : round((t.connect ?? 0) + (t.tls ?? 0));
  return { blocked: opt(t.queued), dns: opt(t.dns), connect, send: 0, wait: round(t.wait ?? 0), receive: round(t.download ?? 0), ssl: opt(t.tls) };
}
