/**
 * Where a followed link's time went inside Chromium, from a trace of the step (walk.ts records one
 * per step with `--trace DIR`: Chrome's trace-event format, CDP `Tracing`). Every time is in ms from
 * the navigation's start in the browser process (`NavigationStartToNavigationCommitSent`), the
 * moment Navigation Timing counts from:
 *
 * - `commitMs`: the new document's commit in its renderer (`RenderFrameImpl::CommitNavigation`);
 * - `domContentLoadedMs`, `loadMs`: the renderer's `MarkDOMContent` and `MarkLoad`;
 * - `firstFrameMs`: the first `ProxyMain::BeginMainFrame` after the commit (the new document's
 *   first style, layout and paint);
 * - `fcpMs`: `firstContentfulPaint` (the frame's presentation);
 * - before the FCP: the extension scripts the renderer ran (`ScriptInjection::InjectJs`: each
 *   `scripting.executeScript`), and the browser main thread's time in `storage.*.set`
 *   (`storage_frontend.cc` `SetWithValueStore`), both work an extension adds to a page that has not
 *   painted yet; and each main thread's busy time (top-level tasks) over the same span.
 */
import { round } from '../engine/stats';
import { readJsonFile } from '../cli/results-file';

/** The trace categories walk.ts records: loading, rendering, the extension system, task sources, the compositor's frames (`benchmark`). */
export const VIEW_TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'toplevel', 'loading', 'navigation', 'blink', 'extensions', 'benchmark'];

export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  cat?: string;
  args?: Record<string, unknown>;
}

export interface ViewTrace {
  commitMs: number | null;
  domContentLoadedMs: number | null;
  loadMs: number | null;
  firstFrameMs: number | null;
  fcpMs: number | null;
  /** Extension scripts run in the page's renderer before its FCP: when each started and how long it ran. */
  injectionsBeforeFcp: Array<{ atMs: number; ms: number }>;
  /** The browser main thread's time writing extension storage before the FCP. */
  storageWriteMsBeforeFcp: number;
  /** Busy ms of each process's main thread between the navigation's start and the FCP, by thread name. */
  mainThreadMsBeforeFcp: Record<string, number>;
}

/** Trace time (µs) as ms, to a tenth. */
const msOf = (us: number): number => round(us / 1000, 1);

function threadNames(events: readonly TraceEvent[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, String((e.args as { name?: unknown })?.name ?? ''));
  return names;
}

const isTopTask = (e: TraceEvent): boolean => e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask' && (e.dur ?? 0) > 0;

/** The summary of one step's trace; null when it holds no navigation start. */
export function summarizeViewTrace(events: readonly TraceEvent[]): ViewTrace | null {
  const start = events.find((e) => e.name === 'NavigationStartToNavigationCommitSent' && e.ph === 'b');
  if (start === undefined) return null;
  const t0 = start.ts;
  const since = (e: TraceEvent | undefined): number | null => (e === undefined ? null : msOf(e.ts - t0));
  const after = (name: string, from = t0) => events.find((e) => e.name === name && e.ts >= from);
  const commit = after('RenderFrameImpl::CommitNavigation');
  const fcp = after('firstContentfulPaint');
  const end = fcp?.ts ?? Number.POSITIVE_INFINITY;
  const names = threadNames(events);
  const injections = events
    .filter((e) => e.name === 'ScriptInjection::InjectJs' && e.ph === 'X' && e.ts >= t0 && e.ts < end)
    .map((e) => ({ atMs: msOf(e.ts - t0), ms: msOf(e.dur ?? 0) }));
  let storageUs = 0;
  const busy = new Map<string, number>();
  for (const e of events) {
    if (!isTopTask(e)) continue;
    const from = Math.max(e.ts, t0);
    const to = Math.min(e.ts + (e.dur ?? 0), end);
    if (to <= from) continue;
    const thread = names.get(`${e.pid}:${e.tid}`) ?? '';
    if (!/Main$/.test(thread)) continue;
    const key = `${thread} ${e.pid}`;
    busy.set(key, (busy.get(key) ?? 0) + (to - from));
    if (thread === 'CrBrowserMain' && String(e.args?.src_file ?? '').endsWith('storage_frontend.cc')) storageUs += to - from;
  }
  return {
    commitMs: since(commit),
    domContentLoadedMs: since(after('MarkDOMContent')),
    loadMs: since(after('MarkLoad')),
    firstFrameMs: since(events.find((e) => e.name === 'ProxyMain::BeginMainFrame' && e.ph === 'X' && e.ts >= (commit?.ts ?? t0))),
    fcpMs: since(fcp),
    injectionsBeforeFcp: injections,
    storageWriteMsBeforeFcp: msOf(storageUs),
    mainThreadMsBeforeFcp: Object.fromEntries([...busy].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, msOf(v)])),
  };
}

/** A trace file as walk.ts wrote it (CDP's `{traceEvents}` or a bare array), gzipped or not; `fail` makes the coded error for one that is not. */
export function readViewTrace(file: string, fail: (message: string) => Error): TraceEvent[] {
  const parsed = readJsonFile(file, fail) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  return Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
}
