/**
 * A bench corpus page as the extension would record a load of it (lean capture: Navigation and
 * Resource Timing), on a path with a given round trip: every request sent the moment it is found,
 * its first byte one round trip later, a new connection on each origin's first request (one more
 * round trip over https). A resource named by markup starts at the document's first byte; one
 * named inside a style sheet, just after that sheet has arrived. Script-inserted resources are
 * left out (no `getlist load` strategy runs scripts, and their bound leaves them out too).
 *
 * It feeds the popup's diagnosis the same page the bench's bound reads from the manifest, so the
 * two can be compared on the same inputs (test/bench-report/diagnosis-bound.test.ts), and gives
 * the diagnosis benchmark pages of real shapes (bench/diagnosis/main.ts).
 */
import type { PageRecord, TimingEntry } from '../../src/page/model/page-record';
import type { BenchPage, BenchResource, OriginPath } from '../corpus/bench-corpus';

const INITIATOR_BY_KIND: Readonly<Record<string, string>> = { stylesheet: 'link', script: 'script', image: 'img', font: 'link' };

export function schemeOf(page: BenchPage, origin: string): 'http' | 'https' {
  return page.schemes?.[origin] ?? page.documentScheme ?? 'http';
}

export function benchUrl(page: BenchPage, p: OriginPath): string {
  return `${schemeOf(page, p.origin)}://${p.origin}${p.path}`;
}

export function recordedBenchPage(page: BenchPage, rttMs: number): PageRecord {
  const handshake = (origin: string) => rttMs * (schemeOf(page, origin) === 'https' ? 2 : 1);
  const docSent = handshake(page.document.origin);
  const docFirstByte = docSent + rttMs;
  const connected = new Set([page.document.origin]);
  const ends = new Map<string, number>([[benchUrl(page, page.document), docFirstByte + 1]]);
  const timings: TimingEntry[] = [];
  let pending = page.resources.filter((r) => r.discoveredBy !== 'script');
  while (pending.length > 0) {
    const next: BenchResource[] = [];
    for (const r of pending) {
      const parentEnd = ends.get(benchUrl(page, r.referencedFrom));
      if (parentEnd === undefined) {
        next.push(r);
        continue;
      }
      // Distinct ends, so the sheet that ended last before a request is the one that named it.
      const tick = timings.length * 0.01;
      const start = r.discoveredBy === 'css' ? parentEnd + 0.001 : docFirstByte + 1 + tick;
      const opens = !connected.has(r.origin);
      connected.add(r.origin);
      const sent = opens ? start + handshake(r.origin) : start;
      const entry: TimingEntry = {
        name: benchUrl(page, r), initiatorType: r.discoveredBy === 'css' ? 'css' : INITIATOR_BY_KIND[r.kind] ?? 'other',
        startTime: start, fetchStart: start, domainLookupStart: start, domainLookupEnd: start, connectStart: start,
        secureConnectionStart: 0, connectEnd: opens ? sent : start, requestStart: sent, responseStart: sent + rttMs,
        responseEnd: sent + rttMs + 1 + tick, transferSize: r.size + 200, encodedBodySize: r.size, nextHopProtocol: 'http/1.1',
        restricted: false,
      };
      timings.push(entry);
      ends.set(entry.name, entry.responseEnd);
    }
    if (next.length === pending.length) throw new RangeError(`page ${page.name}: ${next.map((r) => r.path).join(', ')} name a referrer that is not in the page`);
    pending = next;
  }
  return {
    pageId: `1:0`, tabId: 1, url: benchUrl(page, page.document), startedAt: 0, requests: [], discoveries: [], timings, capture: 'lean',
    navigation: {
      timeOrigin: 0, fetchStart: 0, domainLookupStart: 0, connectStart: 0, connectEnd: docSent, requestStart: docSent,
      responseStart: docFirstByte, responseEnd: docFirstByte + 1, domContentLoadedEventEnd: docFirstByte + 1, loadEventEnd: Math.max(...ends.values()),
      nextHopProtocol: 'http/1.1', transferSize: page.document.size + 300, encodedBodySize: page.document.size,
    },
  };
}
