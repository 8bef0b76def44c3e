/**
 * J1's block of the popup's metrics: what the browser exposed about the page's connections, bytes
 * and document, each with where it came from (`title`) and the raw figures as `data-*`
 * attributes (the e2e suites compare them with the test server's log).
 */
import { connectionCounts } from '../../src/page/model/connection-count';
import { documentResponse, pageBytes } from '../../src/page/model/page-bytes';
import type { PageRecord } from '../../src/page/model/page-record';
import { bytes, h } from '../ui/dom';
import { connectionsBound, connectionsHint, connectionsText } from './connections-text';

/** Nothing from the page's script yet: still loading, or (after load) it never ran there. */
function notReported(page: PageRecord): string {
  return page.loadAt === undefined ? 'not reported yet' : 'not exposed (the page gave no timing: no content script ran in it)';
}

export function observedMetrics(page: PageRecord): HTMLElement[] {
  const metric = (label: string, testId: string, value: string, hint: string, data: Record<string, string | number | undefined> = {}) =>
    h('div', { class: 'metric', title: hint }, h('dt', {}, label), h('dd', { 'data-testid': testId, ...Object.fromEntries(Object.entries(data).map(([k, v]) => [`data-${k}`, v])) }, value));
  const reported = page.timings.length > 0 || page.navigation !== undefined;

  const c = connectionCounts(page);
  const connections = !reported ? notReported(page) : c.requests === 0 ? 'not exposed' : connectionsText(c);

  const b = pageBytes(page);
  const bytesText = !reported
    ? notReported(page)
    : [
        bytes(b.bytes),
        b.documentBytes === undefined ? 'document not exposed' : `document ${bytes(b.documentBytes)}`,
        b.redirectBytes ? `redirects ${bytes(b.redirectBytes)}` : '',
        b.notExposed ? `+${b.notExposed} not exposed` : '',
        b.redirectsNotExposed ? `+${b.redirectsNotExposed} redirect hops not exposed` : '',
      ]
        .filter(Boolean)
        .join(' · ');

  const d = documentResponse(page);
  const documentText = !d
    ? 'not reported yet'
    : [
        [...d.redirects.map((r) => String(r.status ?? '3xx')), d.error ? `failed: ${d.error}` : String(d.status ?? '…')].join(' → '),
        d.contentType || 'no content type',
      ].join(' · ');

  return [
    metric('Document', 'document', documentText, 'webRequest status and Content-Type of the top-level document (its redirects first)', { status: d?.status, 'content-type': d?.contentType }),
    metric('Transferred', 'bytes', bytesText, 'Resource and Navigation Timing transferSize (each response’s headers count as 300 B), the document included; redirect hops from webRequest where the browser sizes them (Firefox’s responseSize, when not 0). Cross-origin sizes without Timing-Allow-Origin are not exposed.', {
      bytes: reported ? b.bytes : undefined,
    }),
    metric('Connections (browser)', 'connections', connections, connectionsHint(c) || 'Resource Timing', {
      connections: reported ? c.connections : undefined,
      'connections-min': reported ? c.connectionsMin : undefined,
      requests: reported ? c.requests : undefined,
      opened: reported ? c.opened : undefined,
      // `lower`: the figure is HTTP/1.x requests in flight at once somewhere, so at least that many.
      bound: reported && c.requests > 0 ? connectionsBound(c) : undefined,
    }),
  ];
}
