/**
 * J1's block of the popup's metrics: what the browser exposed about the page's connections, bytes
 * and document, each with where it came from (`title`) and the raw figures as `data-*`
 * attributes (the e2e suites compare them with the test server's log).
 */
import { connectionCounts } from '../../src/page/model/connection-count';
import { documentResponse, pageBytes } from '../../src/page/model/page-bytes';
import type { PageRecord } from '../../src/page/model/page-record';
import { DEFAULT_RESOURCE_TIMING_BUFFER } from '../../src/page/model/timing-mapping';
import { bytes, h } from '../ui/dom';
import { connectionsBound, connectionsHint, connectionsText } from './connections-text';
import { detailedCaptureButton } from '../ui/detailed-capture';
import { browser } from '../platform/browser-api';

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
  const lean = page.capture === 'lean';
  // Lean capture sees no redirect hop, only Navigation Timing's count of same-origin ones.
  const leanHops = lean && page.navigation?.redirectCount ? [`${page.navigation.redirectCount} redirect(s), not exposed`] : [];
  const documentText = !d
    ? 'not reported yet'
    : [
        [...leanHops, ...d.redirects.map((r) => String(r.status ?? '3xx')), d.error ? `failed: ${d.error}` : String(d.status ?? (lean && page.navigation ? 'status not exposed' : '…'))].join(' → '),
        d.contentType || (lean ? 'content type not exposed' : 'no content type'),
      ].join(' · ');

  return [
    metric('Document', 'document', documentText, lean ? 'Navigation Timing responseStatus and contentType of the top-level document (lean capture: its redirect hops are not exposed)' : 'webRequest status and Content-Type of the top-level document (its redirects first)', { status: d?.status, 'content-type': d?.contentType, capture: page.capture ?? 'detailed' }),
    metric('Transferred', 'bytes', bytesText, 'Resource and Navigation Timing transferSize (each response’s headers count as 300 B), the document included; redirect hops from webRequest where the browser sizes them (Firefox’s responseSize, when not 0). Cross-origin sizes without Timing-Allow-Origin are not exposed.', {
      bytes: reported ? b.bytes : undefined,
    }),
    metric('Connections (browser)', 'connections', connections, connectionsHint(c) || 'Resource Timing', {
      connections: reported ? c.connections : undefined,
      'connections-min': reported ? c.connectionsMin : undefined,
      requests: reported ? c.requests : undefined,
      opened: reported ? c.opened : undefined,
      // The lower bound on connections used (each origin's requests in flight at once, capped); absent when not exposed.
      'used-at-least': reported ? c.usedAtLeast : undefined,
      unsent: reported ? c.unsent : undefined,
      // `lower`: the figure is HTTP/1.x requests in flight at once somewhere, so at least that many; `not-exposed`: no figure.
      bound: reported && c.requests > 0 ? connectionsBound(c) : undefined,
    }),
  ];
}

/**
 * Lean capture's note under the metrics: what the page's own timing does not tell (so nothing
 * below shows it as a number), and the button that turns on Detailed capture.
 */
export function leanCaptureNote(page: PageRecord): HTMLElement | null {
  if (page.capture !== 'lean') return null;
  const full = page.timingsBufferFull === true;
  return h(
    'p',
    { class: 'note', 'data-testid': 'lean-capture', 'data-buffer-full': String(full) },
    full
      ? `The page’s Resource Timing buffer was full (${DEFAULT_RESOURCE_TIMING_BUFFER} entries, the browser’s limit unless the page raises it): its later requests are missing from every figure above. `
      : '',
    'Lean capture (the page’s own Resource and Navigation Timing, read after load; discovery times are the browser’s own request starts). Not exposed — turn on Detailed capture: per-request headers (the HAR has none), server IP addresses, failed requests, redirect hops, requests past a full Resource Timing buffer, when each element was inserted. ',
    detailedCaptureButton(browser.permissions, browser.runtime.getURL('')),
  );
}
