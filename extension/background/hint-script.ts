/**
 * Lean capture's hint script (content-hints.js: asks for the page's list at `document_start` and
 * inserts `<link>` elements, extension/content/hint-links.ts) is registered at run time for the
 * hosts that have learned hints only (src/hints/hint-hosts.ts), with `scripting.registerContentScripts`.
 * A page on any other host runs no hint code: no script, no message, no storage read. The
 * manifest declared it for every page until session 20, where the message was the page's first
 * extension API call and about half the lean build's cost on a 20-resource page (bench/overhead.ts).
 *
 * `scripting` adds no request proxy (unlike webRequest/DNR, detailed-capture.ts). Registrations
 * persist across browser sessions (the default in Chromium; asked for explicitly), so the first
 * page after a restart is hinted before the background has started.
 *
 * Invariant: at most one registration, id HINT_SCRIPT_ID, whose `matches` are the patterns of the
 * last sync; none when no host has hints (a registration needs at least one pattern).
 */
export const HINT_SCRIPT_ID = 'getlist-hints';
export const HINT_SCRIPT_FILE = 'content-hints.js';

interface RegisteredScript {
  id: string;
  matches?: string[];
  js?: string[];
  runAt?: 'document_start' | 'document_end' | 'document_idle';
  allFrames?: boolean;
  persistAcrossSessions?: boolean;
}

/** The part of `scripting` the hint script uses. */
export interface ScriptingLike {
  getRegisteredContentScripts(filter?: { ids?: string[] }): Promise<RegisteredScript[]>;
  registerContentScripts(scripts: RegisteredScript[]): Promise<void>;
  updateContentScripts(scripts: Array<Pick<RegisteredScript, 'id' | 'matches'>>): Promise<void>;
  unregisterContentScripts(filter?: { ids?: string[] }): Promise<void>;
}

/** Makes the registration match `patterns` (sorted, de-duplicated by the caller); touches nothing when it already does. */
export async function syncHintScript(scripting: ScriptingLike, patterns: readonly string[]): Promise<void> {
  const [current] = await scripting.getRegisteredContentScripts({ ids: [HINT_SCRIPT_ID] });
  if (patterns.length === 0) {
    if (current) await scripting.unregisterContentScripts({ ids: [HINT_SCRIPT_ID] });
    return;
  }
  if (current && sameList(current.matches ?? [], patterns)) return;
  if (current) {
    await scripting.updateContentScripts([{ id: HINT_SCRIPT_ID, matches: [...patterns] }]);
    return;
  }
  await scripting.registerContentScripts([
    { id: HINT_SCRIPT_ID, js: [HINT_SCRIPT_FILE], matches: [...patterns], runAt: 'document_start', allFrames: false, persistAcrossSessions: true },
  ]);
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const set = new Set(a);
  return b.every((x) => set.has(x));
}
