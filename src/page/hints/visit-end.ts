/**
 * When a visit is learned from. A visit ends at the first of: its tab closed, a new top-frame
 * document committed in its tab (the usual way people browse: a link followed in the same tab), or
 * `LEARN_DELAY_MS` after its `load` for a user who stays. Whichever comes first, the visit is learned
 * from once, with what the page reported by then (a navigated visit NAVIGATED_LEARN_DELAY_MS after
 * the commit that ended it); the later ends find it claimed. A visit that never
 * reached `load` teaches nothing: its timings and discoveries are not in.
 */
export type VisitEnd = 'closed' | 'navigated' | 'settled';

/**
 * After `load`, how long a staying user's visit waits for the content script's later reports
 * (insertions after `load` come in batches a second apart, extension/content/discovery-observer.ts).
 */
export const LEARN_DELAY_MS = 5000;

/**
 * A visit ended by a new document in its tab is learned this long after that commit, not at it:
 * the learning's storage writes, the host's fill-in request and the service worker's own work
 * would otherwise run while the new page renders, and Chromium serves extension storage and
 * messaging on the browser main thread, which also submits the new page's frames (bench/README.md,
 * "The learning at the next commit held the new page's paint"). The ended page's record is taken
 * at the commit, so nothing it reported is lost meanwhile.
 */
export const NAVIGATED_LEARN_DELAY_MS = 1500;

/** Page ids kept as claimed: more than the open tabs' visits that can be pending at once. */
export const CLAIMED_MAX = 500;

/**
 * The visits already learned from (their page ids), oldest first and bounded. A claim is made
 * before the learning, so a visit is learned at most once even when two ends race or the service
 * worker restarts between them (the ids are kept in `storage.session`).
 */
export class ClaimedVisits {
  private readonly ids: Set<string>;

  constructor(ids: Iterable<string> = [], private readonly max = CLAIMED_MAX) {
    this.ids = new Set(ids);
    this.trim();
  }

  /** True the first time `pageId` is claimed, false ever after. */
  claim(pageId: string): boolean {
    if (this.ids.has(pageId)) return false;
    this.ids.add(pageId);
    this.trim();
    return true;
  }

  has(pageId: string): boolean {
    return this.ids.has(pageId);
  }

  toJson(): string[] {
    return [...this.ids];
  }

  private trim(): void {
    for (const id of this.ids) {
      if (this.ids.size <= this.max) break;
      this.ids.delete(id);
    }
  }
}

/** The claimed ids as stored: strings only, anything else read as none. */
export function claimedFromJson(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.length <= 64) : [];
}

/**
 * How long a settled-visit timer still has to run for a page that loaded at `loadAt` (epoch ms),
 * at `now`: a timer the suspended service worker lost is set again for what is left of it.
 */
export function settleDelay(loadAt: number, now: number, delayMs = LEARN_DELAY_MS): number {
  return Math.max(0, loadAt + delayMs - now);
}
