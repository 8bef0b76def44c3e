import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { readViewTrace, summarizeViewTrace, type TraceEvent } from '../../bench/navigate/view-trace';
import { traceSummary } from '../../bench/navigate/trace-summary';
import { parseNavArgs } from '../../bench/navigate/nav-args';

const BROWSER = 1;
const RENDERER = 2;
const T0 = 5_000_000;
const at = (ms: number) => T0 + ms * 1000;
const meta = (pid: number, tid: number, name: string): TraceEvent => ({ name: 'thread_name', ph: 'M', ts: 0, pid, tid, args: { name } });
const task = (pid: number, startMs: number, ms: number, srcFile = 'ipc/ipc_mojo_bootstrap.cc'): TraceEvent => ({ name: 'ThreadControllerImpl::RunTask', ph: 'X', ts: at(startMs), dur: ms * 1000, pid, tid: pid, args: { src_file: srcFile } });
const mark = (name: string, pid: number, ms: number, ph = 'R'): TraceEvent => ({ name, ph, ts: at(ms), pid, tid: pid });

/** A prefetched view as Chromium traces it: the milestones, two extension scripts (one after the FCP), a storage write and main-thread tasks. */
const view = (): TraceEvent[] => [
  meta(BROWSER, BROWSER, 'CrBrowserMain'),
  meta(RENDERER, RENDERER, 'CrRendererMain'),
  meta(RENDERER, 7, 'Compositor'),
  task(BROWSER, -20, 10), // before the navigation: not counted
  { name: 'NavigationStartToNavigationCommitSent', ph: 'b', ts: T0, pid: BROWSER, tid: BROWSER },
  mark('RenderFrameImpl::CommitNavigation', RENDERER, 25, 'X'),
  { name: 'ProxyMain::BeginMainFrame', ph: 'X', ts: at(10), dur: 1000, pid: RENDERER, tid: RENDERER }, // the old document's frame
  { name: 'ProxyMain::BeginMainFrame', ph: 'X', ts: at(80), dur: 4000, pid: RENDERER, tid: RENDERER },
  mark('MarkDOMContent', RENDERER, 50),
  mark('MarkLoad', RENDERER, 70),
  mark('firstContentfulPaint', RENDERER, 100),
  { name: 'ScriptInjection::InjectJs', ph: 'X', ts: at(90), dur: 6500, pid: RENDERER, tid: RENDERER },
  { name: 'ScriptInjection::InjectJs', ph: 'X', ts: at(130), dur: 3000, pid: RENDERER, tid: RENDERER },
  task(BROWSER, 60, 8, 'extensions/browser/api/storage/storage_frontend.cc'),
  task(BROWSER, 95, 10), // clipped at the FCP: 5 ms
  task(RENDERER, 25, 20),
  task(7, 30, 50), // a compositor thread, not a main thread
];

describe('where a traced view\'s time went', () => {
  it('times the milestones from the navigation\'s start and clips the work at the first contentful paint', () => {
    const t = summarizeViewTrace(view());
    expect(t).toEqual({
      commitMs: 25,
      domContentLoadedMs: 50,
      loadMs: 70,
      firstFrameMs: 80,
      fcpMs: 100,
      injectionsBeforeFcp: [{ atMs: 90, ms: 6.5 }],
      storageWriteMsBeforeFcp: 8,
      mainThreadMsBeforeFcp: { [`CrRendererMain ${RENDERER}`]: 20, [`CrBrowserMain ${BROWSER}`]: 13 },
    });
  });

  it('has nothing to say of a trace without a navigation', () => {
    expect(summarizeViewTrace(view().filter((e) => e.name !== 'NavigationStartToNavigationCommitSent'))).toBeNull();
  });

  it('reads a folder of traces, gzipped or not, CDP\'s object or a bare array, one row per step and a median per prefix', () => {
    const dir = mkdtempSync(join(tmpdir(), 'getlist-trace-'));
    try {
      writeFileSync(join(dir, 'getlist-on-100-1.json'), JSON.stringify({ traceEvents: view() }));
      writeFileSync(join(dir, 'getlist-on-100-0.json.gz'), gzipSync(JSON.stringify(view())));
      writeFileSync(join(dir, 'notes.txt'), 'not a trace');
      expect(readViewTrace(join(dir, 'getlist-on-100-0.json.gz'), (m) => new Error(m))).toHaveLength(view().length);
      const rows = traceSummary(dir).split('\n').filter((l) => l.startsWith('| getlist') || l.startsWith('| **'));
      expect(rows).toEqual([
        '| getlist-on-100 0 | 25 | 50 | 70 | 80 | 100 | 1 (7 ms) | 8 | 13 |',
        '| getlist-on-100 1 | 25 | 50 | 70 | 80 | 100 | 1 (7 ms) | 8 | 13 |',
        '| **getlist-on-100 median** | 25 | 50 | 70 | 80 | 100 | 1 | 8 | 13 |',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names a folder it cannot read, one without traces, and a file that is not JSON, with a usage code', () => {
    const dir = mkdtempSync(join(tmpdir(), 'getlist-trace-'));
    try {
      expect(() => traceSummary(join(dir, 'missing'))).toThrow(expect.objectContaining({ code: 'E_BENCH_USAGE', message: expect.stringMatching(/cannot read/) }));
      expect(() => traceSummary(dir)).toThrow(expect.objectContaining({ code: 'E_BENCH_USAGE', message: expect.stringMatching(/holds no trace/) }));
      writeFileSync(join(dir, 'getlist-on-100-3.json'), '{"traceEvents": [');
      expect(() => traceSummary(dir)).toThrow(expect.objectContaining({ code: 'E_BENCH_USAGE', message: expect.stringMatching(/getlist-on-100-3.json is not JSON/) }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is asked for on the command line: --trace DIR with a walk, --trace-summary DIR alone', () => {
    expect(parseNavArgs(['--quick', '--trace', '/tmp/t'])).toMatchObject({ quick: true, trace: '/tmp/t' });
    expect(parseNavArgs(['--trace-summary', '/tmp/t'])).toMatchObject({ traceSummary: '/tmp/t' });
    expect(parseNavArgs(['--quick']).trace).toBeUndefined();
  });
});
