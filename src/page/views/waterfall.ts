import type { PageRecord } from '../model/page-record';

/** One bar of the waterfall, in SVG user units. */
export interface WaterfallBar {
  url: string;
  /** Colour class: the request's type (`script`, `stylesheet`, `image`, `font`, `document`, `other`…). */
  type: string;
  startMs: number;
  /** `undefined` while the request is still open (drawn to the end of the axis). */
  endMs?: number;
  x: number;
  y: number;
  width: number;
  /** Where the content script discovered the URL, when it did and that was before the start. */
  discoveryX?: number;
  discoveryMs?: number;
  failed: boolean;
}

export interface WaterfallLayout {
  width: number;
  height: number;
  /** Left edge of the time axis (the label gutter is to its left). */
  plotLeft: number;
  rowHeight: number;
  /** The time span shown, ms from navigation start. */
  spanMs: number;
  bars: WaterfallBar[];
  ticks: Array<{ x: number; label: string }>;
  /** y of the axis line (below the last row). */
  axisY: number;
}

export interface WaterfallOptions {
  /** @default 400 */
  width?: number;
  /** @default 10 */
  rowHeight?: number;
  /** @default 0 */
  plotLeft?: number;
  /** Draw at most this many rows. @default 300 */
  maxRows?: number;
}

/** Minimum bar width, so a 0 ms cache hit stays visible. */
const MIN_BAR = 1.5;

/**
 * Lays out the page's requests on one time axis (ms from navigation start = `page.startedAt`),
 * one row per request in start order. Falls back to Resource Timing entries when the background
 * saw no requests. A discovery tick marks when the content script found the URL in the DOM.
 */
export function layoutWaterfall(page: PageRecord, options: WaterfallOptions = {}): WaterfallLayout {
  const width = options.width ?? 400;
  const rowHeight = options.rowHeight ?? 10;
  const plotLeft = options.plotLeft ?? 0;
  const maxRows = options.maxRows ?? 300;

  type Row = { url: string; type: string; startMs: number; endMs?: number; failed: boolean };
  const rows: Row[] =
    page.requests.length > 0
      ? page.requests.map((r) => ({
          url: r.url,
          type: r.type === 'main_frame' ? 'document' : r.type,
          startMs: Math.max(0, r.startedAt - page.startedAt),
          endMs: r.endedAt === undefined ? undefined : Math.max(0, r.endedAt - page.startedAt),
          failed: r.error !== undefined,
        }))
      : page.timings.map((t) => ({ url: t.name, type: initiatorToType(t.initiatorType), startMs: t.startTime, endMs: t.responseEnd, failed: false }));
  rows.sort((a, b) => a.startMs - b.startMs);
  const shown = rows.slice(0, maxRows);

  const discoveredAt = new Map<string, number>();
  for (const d of page.discoveries) if (!discoveredAt.has(d.url)) discoveredAt.set(d.url, d.atMs);

  const lastMs = Math.max(1, ...shown.map((r) => r.endMs ?? r.startMs), ...[...discoveredAt.values()].filter(Number.isFinite));
  const step = niceStep(lastMs / 5);
  const spanMs = Math.ceil(lastMs / step) * step;
  const plotWidth = Math.max(1, width - plotLeft);
  const xOf = (ms: number) => plotLeft + (ms / spanMs) * plotWidth;

  const bars: WaterfallBar[] = shown.map((r, i) => {
    const x = xOf(r.startMs);
    const end = r.endMs ?? spanMs;
    const bar: WaterfallBar = { url: r.url, type: r.type, startMs: r.startMs, endMs: r.endMs, x, y: i * rowHeight, width: Math.max(MIN_BAR, xOf(end) - x), failed: r.failed };
    const found = discoveredAt.get(r.url);
    if (found !== undefined && found <= spanMs) {
      bar.discoveryMs = found;
      bar.discoveryX = xOf(found);
    }
    return bar;
  });

  const ticks: WaterfallLayout['ticks'] = [];
  for (let ms = 0; ms <= spanMs + 1e-9; ms += step) ticks.push({ x: xOf(ms), label: formatMs(ms) });
  const axisY = shown.length * rowHeight;
  return { width, height: axisY + 16, plotLeft, rowHeight, spanMs, bars, ticks, axisY };
}

/** 1, 2 or 5 × a power of ten, ≥ `raw`. */
export function niceStep(raw: number): number {
  if (!(raw > 0)) return 1;
  const pow = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * pow >= raw) return m * pow;
  return 10 * pow;
}

/** `850 ms`, `1.2 s`, `12 s`. */
export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  return `${s < 10 ? Number(s.toFixed(1)) : Math.round(s)} s`;
}

function initiatorToType(initiator: string): string {
  switch (initiator) {
    case 'script':
      return 'script';
    case 'link':
      return 'stylesheet';
    case 'css':
    case 'img':
    case 'image':
      return 'image';
    case 'iframe':
      return 'sub_frame';
    default:
      return 'other';
  }
}
