/**
 * Whether `content-start.js` (early-records.ts: the MutationObserver and buffered
 * PerformanceObserver that see the load as it happens) runs at `document_start`, and where.
 *
 * Lean capture (the default) runs no script at `document_start`: a declared `document_start`
 * script costs the page's DOMContentLoaded whatever it does — empty, observers only, or in the
 * page's main world — while the same build without it costs nothing measurable (bench/overhead/main.ts;
 * docs/extension.md, "Why nothing at `document_start`"). The cost is the script's presence before
 * the parser, not its work. So lean capture
 * takes everything from after `load` (content.js, content-injection.ts): discovery times come from
 * the browser's own request starts (Resource Timing, discovery-times.ts), elements inserted after
 * `load` keep their MutationObserver time, and a page past its Resource Timing buffer (250 entries)
 * is labelled as such rather than counted short in silence (popup: observed-metrics.ts).
 *
 * Detailed capture — the user's choice of precision over cost, which already routes every request
 * through Chromium's proxy — registers the script (`scripting.registerContentScripts`, persisted
 * across browser sessions), so its records hold every insertion's own time and every timing entry.
 *
 * Invariant: at most one registration, under {@link EARLY_RECORDER_ID}; it exists exactly when the
 * background started in Detailed capture (synced at every background start, since a mode change
 * in either browser restarts or reloads the background: detailed-capture.ts, capture-reload.ts).
 */
import type { CaptureMode } from '../platform/detailed-capture';

export const EARLY_RECORDER_ID = 'getlist-early-records';
export const EARLY_RECORDER_FILE = 'content-start.js';

export interface RegisteredScript {
  id: string;
  js?: string[];
  matches?: string[];
  runAt?: 'document_start' | 'document_end' | 'document_idle';
  allFrames?: boolean;
}

export interface ScriptingLike {
  getRegisteredContentScripts(filter?: { ids?: string[] }): Promise<RegisteredScript[]>;
  registerContentScripts(scripts: RegisteredScript[]): Promise<void>;
  unregisterContentScripts(filter?: { ids?: string[] }): Promise<void>;
}

/** What the sync did: `registered`, `unregistered`, `kept` (already as wanted) — or threw, rejected with the browser's error. */
export type RecorderSync = 'registered' | 'unregistered' | 'kept';

/**
 * Registers the recorder in Detailed capture and removes it in lean capture. A registration of an
 * older shape (other file or origins) is replaced.
 */
export async function syncEarlyRecorder(scripting: ScriptingLike, mode: CaptureMode, matches: readonly string[]): Promise<RecorderSync> {
  const wanted: RegisteredScript = { id: EARLY_RECORDER_ID, js: [EARLY_RECORDER_FILE], matches: [...matches], runAt: 'document_start', allFrames: false };
  const [current] = await scripting.getRegisteredContentScripts({ ids: [EARLY_RECORDER_ID] });
  if (mode === 'lean') {
    if (!current) return 'kept';
    await scripting.unregisterContentScripts({ ids: [EARLY_RECORDER_ID] });
    return 'unregistered';
  }
  if (current && sameScript(current, wanted)) return 'kept';
  if (current) await scripting.unregisterContentScripts({ ids: [EARLY_RECORDER_ID] });
  await scripting.registerContentScripts([wanted]);
  return 'registered';
}

function sameScript(a: RegisteredScript, b: RegisteredScript): boolean {
  const list = (v: string[] | undefined) => JSON.stringify([...(v ?? [])].sort());
  return list(a.js) === list(b.js) && list(a.matches) === list(b.matches) && (a.runAt ?? 'document_idle') === b.runAt && (a.allFrames ?? false) === b.allFrames;
}
