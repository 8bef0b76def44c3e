/** Recall and precision of getlist's fetches against Chromium's, for one page: recall against Chromium with JS off, precision against Chromium with JS off or on. */
export interface FidelityRow {
  fixture: string;
  chromiumOff: number;
  chromiumOn: number;
  getlist: number;
  /** JS-off fetches named inside `<noscript>` (content a scripting browser never parses, which getlist rightly ignores). */
  noscriptOnly: number;
  /** |getlist ∩ off′| / |off′|, off′ = JS-off fetches without noscript-only ones. */
  recall: number;
  /** |getlist ∩ (off ∪ on)| / |getlist|. */
  precision: number;
  missed: string[];
  extra: string[];
}

/**
 * Compares URL sets. The document itself is left out of every set (both fetch it). `noscript` is
 * the text of the page's `<noscript>` elements: a JS-off fetch whose URL is written there is
 * noscript content (even if a script fetches the same URL with JS on, as lazy-loading libraries do).
 */
export function compareFetches(input: { fixture: string; documentUrl: string; off: Iterable<string>; on: Iterable<string>; getlist: Iterable<string>; noscript: string }): FidelityRow {
  const strip = (xs: Iterable<string>) => new Set([...xs].filter((u) => u !== input.documentUrl));
  const off = strip(input.off);
  const on = strip(input.on);
  const got = strip(input.getlist);
  const noscriptOnly = new Set([...off].filter((u) => writtenIn(u, input.noscript)));
  const wanted = [...off].filter((u) => !noscriptOnly.has(u));
  const either = new Set([...off, ...on]);
  const hits = wanted.filter((u) => got.has(u)).length;
  const good = [...got].filter((u) => either.has(u)).length;
  return {
    fixture: input.fixture,
    chromiumOff: off.size,
    chromiumOn: on.size,
    getlist: got.size,
    noscriptOnly: noscriptOnly.size,
    recall: wanted.length === 0 ? 1 : hits / wanted.length,
    precision: got.size === 0 ? 1 : good / got.size,
    missed: wanted.filter((u) => !got.has(u)),
    extra: [...got].filter((u) => !either.has(u)),
  };
}

/** Whether the URL's path and query (or its last path segment) appear in `text`. */
function writtenIn(url: string, text: string): boolean {
  if (text === '') return false;
  const u = new URL(url);
  let tail = `${u.pathname}${u.search}`;
  try {
    tail = decodeURIComponent(tail);
  } catch {
    // A legacy-encoded query (`%E9`) is not UTF-8: compare it as sent.
  }
  return text.includes(tail) || text.includes(tail.replace(/&/g, '&amp;'));
}

/** A fixed-width table, one row per page plus the means. */
export function formatFidelityTable(rows: readonly FidelityRow[]): string {
  const header = ['fixture', 'chromium off', 'chromium on', 'noscript-only', 'getlist', 'recall (off)', 'precision (off∪on)'];
  const fmt = (r: FidelityRow) => [r.fixture, String(r.chromiumOff), String(r.chromiumOn), String(r.noscriptOnly), String(r.getlist), r.recall.toFixed(3), r.precision.toFixed(3)];
  const mean = (f: (r: FidelityRow) => number) => rows.reduce((a, r) => a + f(r), 0) / Math.max(1, rows.length);
  const body = [...rows.map(fmt), ['mean', '', '', '', '', mean((r) => r.recall).toFixed(3), mean((r) => r.precision).toFixed(3)]];
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] as string).length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] as number)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n');
}
