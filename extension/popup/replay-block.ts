import type { PageRecord } from '../../src/page/page-record';
import { browserObserved } from '../../src/page/page-summary';
import { h } from '../ui/dom';

export const PRIVACY_NOTE =
  "Replays run from getlist's native host without your cookies or credentials; a replayed page may differ from what you see signed in.";

/** The replay comparison: one `tr[data-strategy]` per strategy the host ran, plus what the browser took. */
export function replayTable(page: PageRecord): HTMLTableElement {
  const body = h('tbody');
  const num = (v: number | undefined, digits = 0) => h('td', { class: 'num' }, v === undefined || !Number.isFinite(v) ? '—' : v.toFixed(digits));
  for (const s of page.replay?.summary?.summaries ?? []) {
    body.append(
      h(
        'tr',
        { 'data-strategy': s.strategy },
        h('td', {}, s.strategy, s.errors ? h('small', { class: 'error-text' }, ` ${s.errors} errors`) : null),
        num(s.totalMs),
        num(s.meanTtfbMs),
        num(s.connectionsOpened),
        num(s.requestsPerConnection, 1),
      ),
    );
  }
  const seen = browserObserved(page);
  body.append(
    h(
      'tr',
      { 'data-strategy': 'browser-observed', class: 'observed', title: seen.notExposed ? `${seen.notExposed} cross-origin entries do not expose timing and are left out` : undefined },
      h('td', {}, 'browser (observed)'),
      num(seen.totalMs),
      seen.meanTtfbMs === undefined && seen.notExposed > 0 ? h('td', { class: 'num' }, 'not exposed') : num(seen.meanTtfbMs),
      num(seen.connections),
      num(seen.requestsPerConnection, 1),
    ),
  );
  return h(
    'table',
    { 'data-testid': 'replay-table' },
    h(
      'thead',
      {},
      h('tr', {}, h('th', {}, 'Strategy'), h('th', { class: 'num' }, 'Total ms'), h('th', { class: 'num' }, 'Mean TTFB ms'), h('th', { class: 'num' }, 'Conns'), h('th', { class: 'num' }, 'Req/conn')),
    ),
    body,
  );
}

/**
 * The requests that failed in the replay, one line each: strategy, error code, URL and the
 * reason's first line (at most `limit`). Null when none failed.
 */
export function replayFailures(page: PageRecord, limit = 20): HTMLElement | null {
  const failed = (page.replay?.results ?? []).flatMap((run) => run.requests.filter((r) => r.error).map((r) => ({ strategy: run.strategy, r })));
  if (failed.length === 0) return null;
  const items = failed.slice(0, limit).map(({ strategy, r }) =>
    h('li', { 'data-code': r.error?.code ?? '' }, h('code', {}, r.error?.code ?? ''), ` ${strategy}: ${r.url} — ${(r.error?.message ?? '').split('\n')[0]}`));
  if (failed.length > limit) items.push(h('li', {}, `… and ${failed.length - limit} more`));
  return h('details', { 'data-testid': 'replay-failures' }, h('summary', { class: 'error-text' }, `${failed.length} request(s) failed`), h('ul', {}, ...items));
}

/** One line on the replay's state, or null when there is none. */
export function replayStatus(page: PageRecord): string | null {
  const r = page.replay;
  if (!r) return null;
  if (r.status === 'running') return `Replaying (${r.results.length}/${r.strategies.length} strategies done)…`;
  if (r.status === 'error') return `Replay failed: ${r.error?.message ?? 'unknown error'}${r.error ? ` (${r.error.code})` : ''}`;
  return `Replay done: ${r.strategies.join(', ')}.`;
}
