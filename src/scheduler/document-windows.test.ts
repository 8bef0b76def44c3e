import { Scheduler, strategy } from './index';
import { FakeClock, FakeTransport } from '../../test/support/fake-transport';

const D = 'https://d.test';

/** A first visit of D's page whose document origin got three windows as its TLS handshake started. */
function withWindows(windows: boolean) {
  const clock = new FakeClock();
  const transport = new FakeTransport();
  const scheduler = new Scheduler({ strategy: strategy('getlist'), transport, clock });
  scheduler.enqueue({ url: `${D}/doc`, priority: 'document', resourceType: 'document' });
  if (windows) scheduler.documentWindows(D, 3);
  clock.advance(200);
  for (const c of transport.opened) scheduler.connectionReady(c.id, { protocol: 'h2', handshakeRttMs: 100 });
  // The document's first chunk has arrived on connection 1 when it names its burst.
  const doc = transport.dispatchOf('/doc');
  scheduler.responseStarted(doc.id, { status: 200, httpVersion: '2', keepAlive: true });
  scheduler.responseData(doc.id, 3_400);
  const add = (path: string, priority: 'blocking' | 'font' | 'image' | 'script') => scheduler.enqueue({ url: `${D}${path}`, priority, resourceType: priority === 'blocking' ? 'stylesheet' : priority });
  const on = (path: string) => transport.dispatchOf(path).connectionId;
  const end = (path: string) => scheduler.responseEnded(transport.dispatchOf(path).id, { bytes: 1000 });
  return { transport, add, on, end, docConn: doc.connectionId };
}

describe('windows for the document\'s origin (Scheduler.documentWindows)', () => {
  test('open at once, before ALPN has answered', () => {
    expect(withWindows(true).transport.opened).toHaveLength(3);
    expect(withWindows(false).transport.opened).toHaveLength(1);
  });

  test('the sheet and a font ride the document\'s warm connection; images and scripts go to the cold ones, even when the warm one is idle', () => {
    const t = withWindows(true);
    t.add('/p0.gif', 'image');
    t.add('/s0.css', 'blocking');
    t.add('/j0.js', 'script');
    expect(t.on('/s0.css')).toBe(t.docConn);
    expect(t.on('/p0.gif')).not.toBe(t.docConn);
    expect(t.on('/j0.js')).not.toBe(t.docConn);
    // Both end: the warm connection is idle, and a background image the sheet names still goes cold.
    t.end('/doc');
    t.end('/s0.css');
    t.add('/b0.gif', 'image');
    t.add('/f0.woff2', 'font');
    expect(t.on('/b0.gif')).not.toBe(t.docConn);
    expect(t.on('/f0.woff2')).toBe(t.docConn);
  });

  test('without them every request goes to the one connection', () => {
    const t = withWindows(false);
    t.add('/p0.gif', 'image');
    t.add('/s0.css', 'blocking');
    expect(new Set([t.on('/p0.gif'), t.on('/s0.css'), t.docConn]).size).toBe(1);
  });
});
