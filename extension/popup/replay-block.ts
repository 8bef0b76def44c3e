import type { PageRecord } from '../../src/page/model/page-record';
import { browserObserved, navigationMilestones } from '../../src/page/model/page-summary';
import { browserLastByteMs, replayVerdicts, type StrategyVerdict } from '../../src/page/model/replay-verdict';
import { h } from '../ui/dom';

export const PRIVACY_NOTE =
  "Replays run from getlist's native host without your cookies or credentials; a replayed page may differ from what you see signed in.";

/**
 * The replay comparison: one `tr[data-strategy]` per strategy the host ran, then what the browser
 * took. Every figure in the "Last byte" column measures the same thing (start to the end of the
 * last response); the browser's load event, which also waits for scripts and rendering, is a row
 * of its own (`data-measures="load event"`). A strategy with failed requests is marked invalid
 * (`data-valid="false"`) and its figures are struck through: it fetched less than the page.
 */
export function replayTable(page: PageRecord): HTMLElement {
  const body = h('tbody');
  const num = (v: number | undefined, digits = 0) => h('td', { class: 'num' }, v === undefined || !Number.isFinite(v) ? '—' : v.toFixed(digits));
  const verdicts = new Map(replayVerdicts(page).map((v) => [v.strategy, v]));
  for (const s of page.replay?.summary?.summaries ?? []) {
    const verdict = verdicts.get(s.strategy);
    const invalid = verdict ? !verdict.valid : s.errors > 0;
    body.append(
      h(
        'tr',
        { 'data-strategy': s.strategy, 'data-measures': 'last byte', 'data-valid': String(!invalid), class: invalid ? 'invalid' : undefined },
        h('td', {}, s.strategy, invalid ? h('small', { class: 'error-text', 'data-testid': 'invalid-badge' }, ` invalid: ${s.errors} failed`) : null),
        num(s.totalMs),
        num(s.meanTtfbMs),
        num(s.connectionsOpened),
        num(s.requestsPerConnection, 1),
      ),
    );
  }
  const seen = browserObserved(page);
  const nav = navigationMilestones(page);
  body.append(
    h(
      'tr',
      { 'data-strategy': 'browser-observed', 'data-measures': 'last byte', class: 'observed', title: seen.notExposed ? `${seen.notExposed} cross-origin entries do not expose timing and are left out` : undefined },
      h('td', {}, 'browser (observed)'),
      num(browserLastByteMs(page)),
      seen.meanTtfbMs === undefined && seen.notExposed > 0 ? h('td', { class: 'num' }, 'not exposed') : num(seen.meanTtfbMs),
      seen.connectionsBound === 'not-exposed'
        ? h('td', { class: 'num', title: 'No request exposed when it went on a connection (Resource Timing requestStart)' }, 'not exposed')
        : h('td', { class: 'num', 'data-connections': seen.connections, 'data-bound': seen.connectionsBound, title: seen.connectionsBound === 'lower' ? 'At least: HTTP/1.x requests in flight at once (requestStart…responseEnd), at most 6 per origin' : undefined }, seen.connections === undefined ? '—' : `${seen.connectionsBound === 'lower' ? '≥ ' : ''}${seen.connections}`),
      seen.connectionsBound === 'lower' ? h('td', { class: 'num', title: 'At most: requests over the fewest connections' }, seen.requestsPerConnection === undefined ? '—' : `≤ ${seen.requestsPerConnection.toFixed(1)}`) : num(seen.requestsPerConnection, 1),
    ),
    h(
      'tr',
      { 'data-strategy': 'browser-load-event', 'data-measures': 'load event', class: 'observed aside' },
      h('td', {}, 'browser load event'),
      num(nav.loadMs),
      h('td', { colspan: 3, class: 'muted' }, 'also waits for scripts and rendering; not comparable'),
    ),
  );
  const failures = [...verdicts.values()].filter((v) => !v.valid);
  return h(
    'div',
    {},
    h(
      'table',
      { 'data-testid': 'replay-table' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', {}, 'Strategy'),
          h('th', { class: 'num', title: 'From the start to the end of the last response, for replays and the browser alike' }, 'Last byte ms'),
          h('th', { class: 'num' }, 'Mean TTFB ms'),
          h('th', { class: 'num' }, 'Conns'),
          h('th', { class: 'num' }, 'Req/conn'),
        ),
      ),
      body,
    ),
    failures.length ? failuresBlock(failures) : null,
  );
}

/** Each invalid strategy's failures, one line per code with its reason. */
function failuresBlock(verdicts: readonly StrategyVerdict[]): HTMLElement {
  return h(
    'div',
    { class: 'replay-failures', 'data-testid': 'replay-failures' },
    ...verdicts.map((v) =>
      h(
        'p',
        { 'data-strategy': v.strategy },
        h('strong', {}, `${v.strategy}: ${v.failed} of ${v.requests} requests failed, so its times do not measure the page.`),
        ...v.failures.map((f) => h('span', { class: 'failure', 'data-code': f.code, title: f.example }, h('code', {}, f.code), ` ×${f.count}: ${f.reason}`)),
      ),
    ),
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
  return h('details', { 'data-testid': 'replay-failed-requests' }, h('summary', { class: 'error-text' }, `${failed.length} request(s) failed`), h('ul', {}, ...items));
}

/**
 * The replayed requests whose response type contradicted their kind (an image answered with an
 * HTML page), one line each: delivered as answered, not failed. Null when there were none.
 */
export function replayContradictions(page: PageRecord, limit = 20): HTMLElement | null {
  const noted = (page.replay?.results ?? []).flatMap((run) => run.requests.filter((r) => r.contradiction !== undefined).map((r) => ({ strategy: run.strategy, r })));
  if (noted.length === 0) return null;
  const items = noted.slice(0, limit).map(({ strategy, r }) => h('li', {}, `${strategy}: ${r.url} — ${r.contradiction ?? ''}`));
  if (noted.length > limit) items.push(h('li', {}, `… and ${noted.length - limit} more`));
  return h('details', { 'data-testid': 'replay-contradictions' }, h('summary', {}, `${noted.length} response(s) contradicted their request's type`), h('ul', {}, ...items));
}

/** One line on the replay's state, or null when there is none. */
export function replayStatus(page: PageRecord): string | null {
  const r = page.replay;
  if (!r) return null;
  if (r.status === 'running') return `Replaying (${r.results.length}/${r.strategies.length} strategies done)…`;
  if (r.status === 'error') return `Replay failed: ${r.error?.message ?? 'unknown error'}${r.error ? ` (${r.error.code})` : ''}`;
  const invalid = replayVerdicts(page).filter((v) => !v.valid);
  if (invalid.length) return `Replay invalid: requests failed in ${invalid.map((v) => `${v.strategy} (${v.failed}/${v.requests})`).join(', ')}; see below.`;
  return `Replay done: ${r.strategies.join(', ')}.`;
}
