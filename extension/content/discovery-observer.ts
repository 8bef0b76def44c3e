import { elementResources, needsLayout, RESOURCE_TAGS, type ElementSnapshot } from '../../src/page/model/element-resources';
import type { Discovery } from '../../src/page/model/page-record';
import { intersectsViewport } from '../../src/page/model/viewport';
import { extensionGone, send } from './messaging';

/** Batch discoveries for this long before sending (one message per ~100 ms of parsing). */
const BATCH_MS = 100;
/** The background accepts at most 5000 items per message; stay well below. */
const MAX_PER_MESSAGE = 1000;
/** An element whose first layout has not happened by then (hidden tab, no rendering) is measured directly. */
const LAYOUT_WAIT_MS = 1500;
/** Attributes whose change can start a fetch (lazy-loading libraries set `src` from `data-src`). */
const WATCHED_ATTRIBUTES = ['src', 'srcset', 'href', 'style', 'data', 'poster', 'rel'];

const TAGS: ReadonlySet<string> = new Set(RESOURCE_TAGS);

export interface DiscoveryHandle {
  /** Reports discoveries found elsewhere (style sheet scans); de-duplicated with the rest. */
  report(items: Discovery[]): void;
}

interface Waiting {
  el: Element;
  atMs: number;
  late: boolean;
  since: number;
}

/**
 * Watches the document from `document_start`: every element the parser or a script inserts (or
 * whose URL attribute changes) is classified with the scanner's rules. Elements with a box wait for
 * their first layout (one IntersectionObserver callback) to learn whether they are in the first
 * viewport; `atMs` is still the insertion time. After DOMContentLoaded everything is `late`.
 */
export function startDiscovery(doc: Document): DiscoveryHandle {
  const seen = new Set<string>();
  const processed = new WeakSet<Element>();
  let batch: Discovery[] = [];
  let batchTimer: ReturnType<typeof setTimeout> | undefined;
  let afterDcl = doc.readyState !== 'loading';
  if (!afterDcl) doc.addEventListener('DOMContentLoaded', () => (afterDcl = true), { once: true });

  const flush = () => {
    batchTimer = undefined;
    if (batch.length === 0) return;
    const items = batch;
    batch = [];
    for (let i = 0; i < items.length; i += MAX_PER_MESSAGE) send({ channel: 'content', type: 'discoveries', items: items.slice(i, i + MAX_PER_MESSAGE) });
  };
  const report = (items: Discovery[]) => {
    for (const d of items) {
      if (seen.has(d.url)) continue;
      seen.add(d.url);
      batch.push(d);
    }
    if (batch.length > 0 && batchTimer === undefined) batchTimer = setTimeout(flush, BATCH_MS);
  };

  const classify = (el: Element, atMs: number, late: boolean, inViewport: boolean) => {
    const tag = el.localName;
    const resources = elementResources(snapshot(el, tag, inViewport, doc.baseURI));
    report(resources.map((r) => ({ url: r.url, kind: r.kind, priority: r.priority, atMs, inViewport, tag, late })));
  };

  // Elements waiting for their first layout, by the element the IntersectionObserver watches.
  const waiting = new Map<Element, Waiting[]>();
  let sweepTimer: ReturnType<typeof setInterval> | undefined;
  const resolve = (target: Element, inViewport: (el: Element) => boolean) => {
    const list = waiting.get(target);
    if (!list) return;
    waiting.delete(target);
    io?.unobserve(target);
    for (const w of list) classify(w.el, w.atMs, w.late, inViewport(target));
  };
  const io =
    typeof IntersectionObserver === 'function'
      ? new IntersectionObserver((entries) => {
          for (const e of entries) resolve(e.target, () => e.isIntersecting);
        })
      : undefined;
  const sweep = () => {
    const now = performance.now();
    for (const [target, list] of waiting) {
      if (list.every((w) => now - w.since >= LAYOUT_WAIT_MS)) resolve(target, measureInViewport);
    }
    if (waiting.size === 0 && sweepTimer !== undefined) {
      clearInterval(sweepTimer);
      sweepTimer = undefined;
    }
  };

  const visit = (el: Element, atMs: number, late: boolean) => {
    const tag = el.localName;
    if (!TAGS.has(tag) && !el.hasAttribute('style')) return;
    const attributes = attributesOf(el);
    if (!io || !needsLayout(tag, attributes)) {
      classify(el, atMs, late, false);
      return;
    }
    // <source> has no box: its <picture>/<video> decides.
    const target = tag === 'source' && el.parentElement ? el.parentElement : el;
    const list = waiting.get(target);
    const w = { el, atMs, late, since: performance.now() };
    if (list) list.push(w);
    else {
      waiting.set(target, [w]);
      io.observe(target);
    }
    sweepTimer ??= setInterval(sweep, LAYOUT_WAIT_MS / 3);
  };

  const visitTree = (root: Element, atMs: number, late: boolean) => {
    if (!processed.has(root)) {
      processed.add(root);
      visit(root, atMs, late);
    }
    for (const el of root.querySelectorAll('*')) {
      if (processed.has(el)) continue;
      processed.add(el);
      visit(el, atMs, late);
    }
  };

  const mo = new MutationObserver((records) => {
    if (extensionGone()) {
      mo.disconnect();
      io?.disconnect();
      return;
    }
    const atMs = performance.now();
    for (const r of records) {
      if (r.type === 'attributes') {
        // A changed URL attribute is a script's doing: late by definition.
        if (r.target instanceof Element) visit(r.target, atMs, true);
        continue;
      }
      for (const node of r.addedNodes) if (node instanceof Element) visitTree(node, atMs, afterDcl);
    }
  });
  mo.observe(doc, { childList: true, subtree: true, attributes: true, attributeFilter: WATCHED_ATTRIBUTES });
  if (doc.documentElement) visitTree(doc.documentElement, performance.now(), afterDcl);

  return { report };
}

function measureInViewport(el: Element): boolean {
  const r = el.getBoundingClientRect();
  return intersectsViewport(r, { width: window.innerWidth, height: window.innerHeight });
}

function attributesOf(el: Element): Record<string, string> {
  const out: Record<string, string> = {};
  for (const a of el.attributes) out[a.name.toLowerCase()] = a.value;
  return out;
}

function snapshot(el: Element, tag: string, inViewport: boolean, baseUrl: string): ElementSnapshot {
  const parent = el.parentElement?.localName;
  const mediaParent = parent === 'picture' || parent === 'video' || parent === 'audio' ? parent : undefined;
  const currentSrc = tag === 'img' ? (el as HTMLImageElement).currentSrc : undefined;
  return { tag, attributes: attributesOf(el), inViewport, baseUrl, ...(mediaParent ? { mediaParent } : {}), ...(currentSrc ? { currentSrc } : {}) };
}
