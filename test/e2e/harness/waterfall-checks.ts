import type { Page } from 'puppeteer-core';
import type { PageRecord } from '../../../src/page';
import { isFromHost, type SiteRequest } from '../site/site-server';
import { WAIT_MS } from './extension-pages';
import type { InPage } from './in-page';

/** One request row of the waterfall as drawn (times in ms from navigation start). */
export interface DrawnRow {
  index: number;
  url: string;
  start: number;
  end: number | null;
}

/**
 * Every row of the waterfall's request view, scrolling it from top to bottom (it only renders
 * the rows in view), with the most rows ever rendered at once (the virtual window's size).
 */
export async function collectWaterfallRows(page: Page): Promise<{ rows: DrawnRow[]; maxRendered: number }> {
  await page.waitForSelector('[data-testid=waterfall] .wf-row[data-url]', { timeout: WAIT_MS });
  const { items, maxRendered } = await collectItems(page);
  return { rows: items.filter((d) => d.url !== undefined).map((d) => ({ index: Number(d.index), url: d.url ?? '', start: Number(d.start), end: d.end ? Number(d.end) : null })), maxRendered };
}

/** Every line of the waterfall (request rows, connection lanes, headings) as its data attributes. */
export async function collectItems(page: Page): Promise<{ items: Array<Record<string, string | undefined>>; maxRendered: number }> {
  return page.evaluate(async () => {
    const { document, requestAnimationFrame } = globalThis as unknown as InPage & { requestAnimationFrame(cb: () => void): number };
    const scroll = document.querySelector('[data-testid=waterfall]') as unknown as { scrollTop: number; scrollHeight: number; clientHeight: number; dispatchEvent(e: unknown): boolean; querySelectorAll(s: string): ArrayLike<{ dataset: Record<string, string | undefined> }> };
    const seen = new Map<number, Record<string, string | undefined>>();
    let maxRendered = 0;
    for (let top = 0; ; top += Math.max(1, scroll.clientHeight - 20)) {
      scroll.scrollTop = top;
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(undefined))));
      const rendered = Array.from(scroll.querySelectorAll('.wf-row'));
      maxRendered = Math.max(maxRendered, rendered.length);
      for (const el of rendered) seen.set(Number(el.dataset.index), { ...el.dataset });
      if (top + scroll.clientHeight >= scroll.scrollHeight) break;
    }
    scroll.scrollTop = 0;
    return { items: [...seen.entries()].sort((a, b) => a[0] - b[0]).map(([, d]) => d), maxRendered };
  });
}

/**
 * Pairs of rows whose order the servers contradict: when the waterfall says B started after A
 * had ended, A's request must have reached its server no later than B's (A arrived before A's
 * response ended, which was before B was sent, which was before B arrived). `served` is the
 * browser's requests in the server log; the latest entry per URL is this load's.
 */
export function orderContradictions(rows: readonly DrawnRow[], served: readonly SiteRequest[], slackMs = 2): string[] {
  const arrival = new Map<string, number>();
  for (const r of served) if (!isFromHost(r)) arrival.set(r.url, r.at);
  const out: string[] = [];
  for (const a of rows) {
    for (const b of rows) {
      if (a === b || a.end === null || !(b.start > a.end + slackMs)) continue;
      const at = arrival.get(a.url);
      const bt = arrival.get(b.url);
      if (at !== undefined && bt !== undefined && at > bt) out.push(`${b.url} drawn from ${b.start} ms, after ${a.url} ended at ${a.end} ms, but the server received it ${at - bt} ms earlier`);
    }
  }
  return out;
}

/** The drawn rows must be the record's requests: the same URLs, each as often. */
export function rowUrlsMatch(rows: readonly DrawnRow[], record: PageRecord): { drawn: string[]; recorded: string[] } {
  return { drawn: rows.map((r) => r.url).sort(), recorded: record.requests.map((r) => r.url).sort() };
}

/**
 * Connections that carried the replay's requests, from the servers' log: distinct (origin, client
 * port) among the host's requests logged from `from` on.
 */
export function replayConnectionsLogged(requests: readonly SiteRequest[], from: number): number {
  // A framing probe's HEAD shares its connection with the GET behind it, so it adds no connection.
  return new Set(requests.slice(from).filter(isFromHost).map((r) => `${r.origin} ${r.remotePort}`)).size;
}
