import { elementResources, needsLayout, RESOURCE_TAGS, type ElementSnapshot } from '../../src/page/model/element-resources';
import type { Discovery } from '../../src/page/model/page-record';
import { intersectsViewport } from '../../src/page/model/viewport';
import { afterLoadIdle, idle, type IdleDeadlineLike } from './idle';
import type { EarlyRecords, Pending } from './early-records';
import { extensionGone, send } from './messaging';

/** Late discoveries (after the first report) are batched for this long: one message per second at most. */
const LATE_BATCH_MS = 1000;
/** The background accepts at most 5000 items per message; stay well below. */
const MAX_PER_MESSAGE = 1000;
/** Work on at most this long per idle slice; the rest waits for the next idle period. */
const SLICE_MS = 8;

const TAGS: ReadonlySet<string> = new Set(RESOURCE_TAGS);

export interface DiscoveryHandle {
  /** Reports discoveries found elsewhere (style sheet scans); de-duplicated with the rest. */
  report(items: Discovery[]): void;
  /**
   * The page is being hidden or put away: classifies what is pending for at most `budgetMs` and
   * sends every discovery held now, with no batching delay (its last chance to reach the background).
   */
  flushNow(budgetMs: number): void;
  /** The style scan has reported everything: sent at once, saying so (PageRecord.styleScanned). */
  scanDone(): void;
}

/**
 * Classifies what the document gained, from the records `early-records.ts` kept since
 * `document_start`, and does nothing on the page's critical path: the MutationObserver callback
 * only keeps the records and their delivery time (a push per batch).
 * Classification, viewport geometry and messaging happen in idle callbacks after `load` (and,
 * for later insertions, in idle time after them). Invariants: `atMs` is the insertion's delivery
 * time, which the background lowers to the request's own start when the browser fetched it
 * earlier (the preload scanner does, for parser-found resources); elements are classified once.
 */
export function startDiscovery(doc: Document, early: EarlyRecords): DiscoveryHandle {
  const seen = new Set<string>();
  const processed = new WeakSet<Element>();
  const pending = early.pending;
  let batch: Discovery[] = [];
  let loaded = false;
  let draining = false;
  let flushTimer: ReturnType<typeof setTimeout> | undefined;
  let firstSent = false;

  let scanned = false;
  const flush = () => {
    flushTimer = undefined;
    if (batch.length === 0 && !scanned) return;
    const items = batch;
    batch = [];
    const loadedAt = documentLoadedAt();
    const last = Math.max(0, items.length - 1);
    for (let i = 0; i === 0 || i < items.length; i += MAX_PER_MESSAGE) {
      send({ channel: 'content', type: 'discoveries', items: items.slice(i, i + MAX_PER_MESSAGE), ...(loadedAt !== undefined ? { loadedAt } : {}), ...(scanned && i + MAX_PER_MESSAGE > last ? { styleScanned: true as const } : {}) });
    }
    scanned = false;
  };
  const report = (items: Discovery[]) => {
    for (const d of items) {
      if (seen.has(d.url)) continue;
      seen.add(d.url);
      batch.push(d);
    }
    if (batch.length > 0 && loaded && flushTimer === undefined && !draining) flushTimer = setTimeout(flush, LATE_BATCH_MS);
  };

  const visit = (el: Element, atMs: number, late: boolean) => {
    const tag = el.localName;
    if (!TAGS.has(tag) && !el.hasAttribute('style')) return;
    // The extension's own hints (hint-links.ts) are not the page's references.
    if (el.hasAttribute('data-getlist-hint')) return;
    const attributes = attributesOf(el);
    // <source> has no box: its <picture>/<video> decides.
    const box = tag === 'source' && el.parentElement ? el.parentElement : el;
    const inViewport = needsLayout(tag, attributes) ? inFirstViewport(box) : false;
    const resources = elementResources(snapshot(el, tag, attributes, inViewport, doc.baseURI));
    if (resources.length > 0) report(resources.map((r) => ({ url: r.url, kind: r.kind, priority: r.priority, atMs, inViewport, tag, late })));
  };
  /**
   * When each element was inserted, from every record delivered so far (the earliest wins). The
   * records are classified after `load`, when a subtree may hold elements inserted later than it: those
   * keep their own record's time and phase, so a walk stops at them.
   */
  const insertedAt = new WeakMap<Element, number>();
  const indexed = new WeakSet<Pending>();
  const index = () => {
    for (const p of pending) {
      if (indexed.has(p)) continue;
      indexed.add(p);
      for (const r of p.records) {
        if (r instanceof Element) {
          if (!insertedAt.has(r)) insertedAt.set(r, p.atMs);
        } else if (r.type === 'childList') {
          for (const node of r.addedNodes) if (node instanceof Element && !insertedAt.has(node)) insertedAt.set(node, p.atMs);
        }
      }
    }
  };
  /** `root` and, in document order, its descendants inserted with it (not those a later record added). */
  const visitTree = (root: Element, atMs: number, late: boolean) => {
    const stack: Element[] = [root];
    while (stack.length > 0) {
      const el = stack.pop() as Element;
      if (el !== root && (insertedAt.get(el) ?? atMs) > atMs) continue;
      if (!processed.has(el)) {
        processed.add(el);
        visit(el, atMs, late);
      }
      for (let c = el.lastElementChild; c !== null; c = c.previousElementSibling) stack.push(c);
    }
  };

  /** Classifies pending records until the slice's time is up; true when none are left. */
  const work = (deadline: IdleDeadlineLike): boolean => {
    index();
    while (pending.length > 0) {
      const p = pending[0] as Pending;
      while (p.next < p.records.length) {
        if (deadline.timeRemaining() <= 0) return false;
        const r = p.records[p.next++] as MutationRecord | Element;
        if (r instanceof Element) visitTree(r, p.atMs, p.late);
        else if (r.type === 'attributes') {
          // A changed URL attribute is a script's doing: late by definition, and worth a new look.
          if (r.target instanceof Element) visit(r.target, p.atMs, true);
        } else for (const node of r.addedNodes) if (node instanceof Element) visitTree(node, p.atMs, p.late);
      }
      pending.shift();
    }
    return true;
  };
  const drain = () => {
    if (draining) return;
    draining = true;
    const slice = (deadline: IdleDeadlineLike) => {
      const limit = performance.now() + SLICE_MS;
      const done = work({ timeRemaining: () => Math.min(deadline.timeRemaining(), limit - performance.now()) });
      if (!done) return idle(slice);
      draining = false;
      // The first report after `load` goes at once (a visit may end a second after `load`); later ones are batched.
      if (batch.length > 0 && flushTimer === undefined) flushTimer = setTimeout(flush, firstSent ? LATE_BATCH_MS : 0);
      firstSent = true;
    };
    idle(slice);
  };

  early.onMutations = () => {
    if (extensionGone()) {
      early.stopMutations();
      pending.length = 0;
      return;
    }
    if (loaded) drain();
  };

  afterLoadIdle(() => {
    loaded = true;
    drain();
  });
  const flushNow = (budgetMs: number) => {
    if (extensionGone()) return;
    const limit = performance.now() + budgetMs;
    work({ timeRemaining: () => limit - performance.now() });
    if (flushTimer !== undefined) clearTimeout(flushTimer);
    flush();
  };
  const scanDone = () => {
    scanned = true;
    if (flushTimer !== undefined) clearTimeout(flushTimer);
    flush();
  };
  return { report, flushNow, scanDone };
}

/** Epoch ms of this document's `load` event (the background tells its reports from a later document's by it); undefined before `load`. */
export function documentLoadedAt(): number | undefined {
  const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  return nav && nav.loadEventStart > 0 ? Math.round(performance.timeOrigin + nav.loadEventStart) : undefined;
}

/** "First viewport": relative to the document's top, so a page scrolled since load still counts its top. */
export function inFirstViewport(el: Element): boolean {
  const r = el.getBoundingClientRect();
  return intersectsViewport(
    { top: r.top + window.scrollY, left: r.left + window.scrollX, width: r.width, height: r.height },
    { width: window.innerWidth, height: window.innerHeight },
  );
}

function attributesOf(el: Element): Record<string, string> {
  const out: Record<string, string> = {};
  for (const a of el.attributes) out[a.name.toLowerCase()] = a.value;
  return out;
}

function snapshot(el: Element, tag: string, attributes: Record<string, string>, inViewport: boolean, baseUrl: string): ElementSnapshot {
  const parent = el.parentElement?.localName;
  const mediaParent = parent === 'picture' || parent === 'video' || parent === 'audio' ? parent : undefined;
  const currentSrc = tag === 'img' ? (el as HTMLImageElement).currentSrc : undefined;
  return { tag, attributes, inViewport, baseUrl, ...(mediaParent ? { mediaParent } : {}), ...(currentSrc ? { currentSrc } : {}) };
}
