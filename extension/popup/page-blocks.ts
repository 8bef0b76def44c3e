import type { PageRecord } from '../../src/page/model/page-record';
import { connectionUsage, navigationMilestones, origins, requestCount, transferBytes } from '../../src/page/model/page-summary';
import { bytes, h, ms } from '../ui/dom';

/** The numbers at the top: navigation milestones, request/byte/origin counts, connections. */
export function metricsBlock(page: PageRecord): HTMLElement {
  const nav = navigationMilestones(page);
  const size = transferBytes(page.timings);
  const usage = connectionUsage(page.timings);
  const exposed = usage.opened + usage.reused + usage.cached;
  const connections =
    page.timings.length === 0
      ? 'not reported yet'
      : exposed === 0
        ? 'not exposed'
        : [`${usage.opened} opened`, `${usage.reused} reused`, usage.cached ? `${usage.cached} from cache` : '', usage.notExposed ? `${usage.notExposed} not exposed` : '']
            .filter(Boolean)
            .join(', ');
  const bytesText =
    page.timings.length === 0 ? 'not reported yet' : size.exposed === 0 ? 'not exposed' : `${bytes(size.bytes)}${size.notExposed ? ` (+${size.notExposed} not exposed)` : ''}`;
  const metric = (label: string, testId: string, value: string, hint?: string) =>
    h('div', { class: 'metric', title: hint }, h('dt', {}, label), h('dd', { 'data-testid': testId }, value));
  return h(
    'dl',
    { class: 'metrics' },
    metric('TTFB', 'ttfb', ms(nav.ttfbMs), 'Navigation Timing responseStart'),
    metric('DOMContentLoaded', 'dcl', ms(nav.domContentLoadedMs)),
    metric('Load', 'load', ms(nav.loadMs)),
    metric('Requests', 'request-count', String(requestCount(page))),
    metric('Transferred', 'bytes', bytesText, 'Resource Timing transferSize; cross-origin sizes without Timing-Allow-Origin are not exposed'),
    metric('Origins', 'origin-count', String(origins(page).length)),
    metric(
      'Connections (browser)',
      'connections',
      connections,
      'From Resource Timing: connectStart = connectEnd means the request reused a connection. Cross-origin entries without Timing-Allow-Origin do not expose it.',
    ),
  );
}

/** The host's handshake measurements for the page's origins: one `tr[data-origin]` per origin. */
export function handshakesBlock(page: PageRecord): HTMLElement {
  const body = h('tbody');
  const m = page.measured;
  const cell = (v: number, show: boolean) => h('td', { class: 'num' }, show ? ms(v) : '—');
  if (m) {
    for (const hs of m.handshakes) {
      const https = hs.origin.startsWith('https:');
      body.append(
        h(
          'tr',
          { 'data-origin': hs.origin },
          h('td', { class: 'origin', title: hs.origin }, hostOf(hs.origin), h('small', {}, ` ${hs.protocol}${https ? (hs.resumed ? ' · resumed' : ' · full TLS') : ''}`)),
          cell(hs.dnsMs, true),
          cell(hs.tcpMs, true),
          cell(hs.tlsMs, https),
          cell(hs.totalMs, true),
        ),
      );
    }
    for (const origin of m.warm) {
      body.append(h('tr', { 'data-origin': origin, class: 'warm' }, h('td', { class: 'origin', title: origin }, hostOf(origin)), h('td', { colspan: 4 }, 'warm connection')));
    }
    for (const f of m.failed) {
      body.append(h('tr', { 'data-origin': f.origin, class: 'failed' }, h('td', { class: 'origin', title: f.origin }, hostOf(f.origin)), h('td', { colspan: 4, title: f.message }, `failed: ${f.code}`)));
    }
  }
  if (body.childElementCount === 0) {
    const why = page.excluded
      ? 'This site is excluded in the settings: nothing was sent to the host.'
      : page.hostError
        ? `Not measured: ${page.hostError.message} (${page.hostError.code})`
        : m
          ? 'The host measured no origins.'
          : 'Waiting for the host’s measurement…';
    body.append(h('tr', { class: 'placeholder' }, h('td', { colspan: 5 }, why)));
  }
  return h(
    'section',
    { class: 'block' },
    h('h2', {}, 'Handshakes (measured by the host)'),
    h(
      'table',
      { 'data-testid': 'handshakes' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Origin'), h('th', { class: 'num' }, 'DNS'), h('th', { class: 'num' }, 'TCP'), h('th', { class: 'num' }, 'TLS'), h('th', { class: 'num' }, 'Total'))),
      body,
    ),
  );
}

export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
