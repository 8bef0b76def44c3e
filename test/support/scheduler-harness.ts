import { Scheduler, type RequestResult, type RequestSpec, type Strategy } from '../../src/scheduler';
import { FakeClock, FakeTransport } from './fake-transport';

/**
 * One scheduler on a fake clock and a fake transport, for the tests of src/scheduler/scheduler*.test.ts:
 * requests to origin `O`, answered by hand.
 */
export const O = 'http://a.test';

export function setup(s: Strategy) {
  const clock = new FakeClock();
  const transport = new FakeTransport();
  const results: RequestResult[] = [];
  const scheduler = new Scheduler({ strategy: s, transport, clock, observer: { onRequestSettled: (r) => results.push(r) } });
  const add = (path: string, extra: Partial<RequestSpec> = {}) =>
    scheduler.enqueue({ url: `${O}${path}`, priority: 'image', ...extra });
  /** Completes a dispatch: headers then body. */
  const finish = (path: string, opts: { bytes?: number; version?: string; keepAlive?: boolean; length?: number; contentType?: string } = {}) => {
    const d = transport.dispatchOf(path);
    scheduler.responseStarted(d.id, { status: 200, httpVersion: opts.version ?? '1.1', keepAlive: opts.keepAlive ?? true, contentLength: opts.length, ...(opts.contentType ? { contentType: opts.contentType } : {}) });
    scheduler.responseEnded(d.id, { bytes: opts.bytes ?? 100 });
  };
  const ready = (id: number, protocol: 'h2' | 'http/1.1' = 'http/1.1') => scheduler.connectionReady(id, { protocol });
  const result = (path: string) => {
    const r = results.find((x) => x.url.endsWith(path));
    if (!r) throw new Error(`no result for ${path}`);
    return r;
  };
  return { clock, transport, scheduler, results, add, finish, ready, result };
}
