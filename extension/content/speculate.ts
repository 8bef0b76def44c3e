/**
 * `content-speculate.js`: the next page before the click (docs/extension.md, "The next page before the
 * click"). Injected by the background after the top frame's `load`, only where the page may
 * speculate (extension/background/speculation-wiring.ts), in the extension's isolated world. It
 * reports how the document itself was served, asks for its context — in lean capture, then says
 * whether the HTTP cache kept it (a `no-store` answer is never kept: lean capture's only evidence of
 * one) — and then asks
 * the browser to fetch a same-origin link ahead when the pointer rests on it (moderate: 65 ms,
 * instant.page's hover delay), when it is pressed (`pointerdown`/`touchstart`, every
 * eagerness), or at once for the links most earlier visits followed (eager). Every link passes the safety filter
 * (src/page/speculation/link-safety.ts) at the moment it would be fetched. With prerender allowed,
 * a hover prerenders only a page this browser loaded before, and prefetches any other (`eager`
 * prerenders it too): a hovered link is often not clicked, and a prerender of a page never loaded
 * fetches all its subresources for nothing. A prerender a hover started is withdrawn when the
 * pointer rests on another link, so the page the pointer left stops taking the link from the one
 * it rests on.
 *
 * How (browser-checked): Chromium takes a `<script type="speculationrules">` list rule with
 * `eagerness: "immediate"` inserted from the isolated world, and serves the navigation from it
 * (`deliveryType` `navigational-prefetch`; a prerender also has `activationStart` > 0). Firefox ESR
 * has no speculation rules (`HTMLScriptElement.supports('speculationrules')` is false), and its
 * `<link rel=prefetch>` goes through the HTTP cache: a document not fresh there is fetched a second
 * time on the click, so nothing is inserted there (docs/extension.md).
 *
 * Listeners are passive; with no context (refused page) or no speculation-rule support nothing
 * listens and nothing is inserted.
 */
import { templateKey } from '../../src/page/hints/site-template';
import type { SpeculationReply } from '../../src/page/messages/messages';
import { linkRefusal, type LinkFacts, type LinkRefusal } from '../../src/page/speculation/link-safety';
import type { ServedReport, SpeculationContext } from '../../src/page/speculation/speculation-types';
import { contentRuntime } from '../platform/content-runtime';
import { idle } from './idle';
import { send } from './messaging';

/**
 * `moderate`: a pointer resting this long on a link. instant.page's delay: a hover this long is
 * followed by a click about 300 ms later on average, so the fetch starts that much before the click
 * (Chromium's own `moderate` waits 200 ms and leaves a third of it).
 */
export const HOVER_MS = 65;
/** Links looked at for the popup's summary, at most. */
const MAX_SCANNED = 1000;
const STARTED_KEY = '__getlistSpeculateStarted';
/** Marks the rule sets getlist inserts, so the page's own are told from them. */
const OWN_ATTR = 'data-getlist-speculation';
/** How long the buffered LCP observer is given to deliver the page's entries. */
const LCP_WAIT_MS = 100;

async function main(): Promise<void> {
  if (window.top !== window || (location.protocol !== 'http:' && location.protocol !== 'https:')) return;
  const g = globalThis as Record<string, unknown>;
  if (g[STARTED_KEY] === true) return;
  g[STARTED_KEY] = true;
  // A prerendered page is loaded before the user sees it: its figures are read once it is shown.
  if ((document as Document & { prerendering?: boolean }).prerendering) await new Promise((ok) => document.addEventListener('prerenderingchange', ok, { once: true }));
  const runtime = contentRuntime();
  if (!runtime) return;
  const ownRules = document.querySelector(`script[type="speculationrules"]:not([${OWN_ATTR}])`) !== null;
  const saveData = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData === true;
  const rulesSupported = supportsRules();
  const served = await servedReport();
  const reply = (await runtime.sendMessage({ channel: 'content', type: 'speculation-ready', served, saveData, ownRules, rulesSupported }).catch(() => undefined)) as SpeculationReply | undefined;
  const context = reply?.type === 'speculation-context' ? reply.context : null;
  // Lean capture asks what the cache kept (the no-store refusal's evidence), in a browser that takes speculation rules.
  if (reply?.readCache === true && rulesSupported) {
    const kept = await documentKept();
    if (kept !== undefined) await runtime.sendMessage({ channel: 'content', type: 'speculation-kept', kept }).catch(() => undefined);
  }
  if (!context || !rulesSupported) return;
  start(context);
}

function supportsRules(): boolean {
  const script = HTMLScriptElement as unknown as { supports?: (type: string) => boolean };
  return script.supports?.('speculationrules') === true;
}

/** Why a link is fetched ahead: the pointer rests on it, it is pressed, or most visits followed it. */
type Cause = 'hover' | 'press' | 'frequent';

function start(context: SpeculationContext): void {
  const asked = new Set<string>();
  let inserted = 0;
  const pageUrl = location.href;
  const refusal = (a: HTMLAnchorElement): LinkRefusal | undefined => linkRefusal(facts(a), pageUrl, context.site, templateKey);
  const visited = new Set(context.visited);
  // A hover prerenders a page loaded before (mostly cached: cheap if nobody clicks); any other
  // hovered page gets its document only, unless the user chose `eager`. A press or a habit
  // prerenders whatever it is.
  const actionFor = (url: string, cause: Cause): SpeculationContext['action'] =>
    cause === 'hover' && context.eagerness !== 'eager' && !visited.has(url) ? 'prefetch' : context.action;
  // The prerender the last hover started, while nothing else asked for it: the next hover's replaces it.
  let hovered: { url: string; rules: HTMLScriptElement } | undefined;
  const speculate = (href: string, cause: Cause) => {
    const url = href.split('#')[0] ?? href;
    if (hovered?.url === url && cause !== 'hover') hovered = undefined;
    if (hovered && hovered.url !== url && cause === 'hover') {
      // Chromium cancels a prerender whose rule is removed (final status SpeculationRuleRemoved).
      hovered.rules.remove();
      asked.delete(hovered.url);
      hovered = undefined;
    }
    if (asked.has(url) || inserted >= context.maxPerPage) return;
    const action = actionFor(url, cause);
    asked.add(url);
    inserted += 1;
    const rules = document.createElement('script');
    rules.type = 'speculationrules';
    rules.setAttribute(OWN_ATTR, '');
    rules.textContent = JSON.stringify({ [action]: [{ source: 'list', urls: [url], eagerness: 'immediate' }] });
    (document.head ?? document.documentElement).append(rules);
    if (cause === 'hover' && action === 'prerender') hovered = { url, rules };
    send({ channel: 'content', type: 'speculated', url, action });
  };
  const anchorOf = (target: EventTarget | null): HTMLAnchorElement | undefined => {
    const a = target instanceof Element ? target.closest('a[href]') : null;
    return a instanceof HTMLAnchorElement && refusal(a) === undefined ? a : undefined;
  };

  let hover: { a: HTMLAnchorElement; timer: ReturnType<typeof setTimeout> } | undefined;
  const cancel = () => {
    if (hover) clearTimeout(hover.timer);
    hover = undefined;
  };
  const press = (e: Event) => {
    const a = anchorOf(e.target);
    if (a) speculate(a.href, 'press');
  };
  const listen = { passive: true, capture: true } as const;
  document.addEventListener('pointerdown', press, listen);
  document.addEventListener('touchstart', press, listen);
  if (context.eagerness !== 'conservative') {
    document.addEventListener('pointerover', (e) => {
      const a = anchorOf(e.target);
      if (!a || hover?.a === a) return;
      cancel();
      hover = { a, timer: setTimeout(() => speculate(a.href, 'hover'), HOVER_MS) };
    }, listen);
    document.addEventListener('pointerout', (e) => {
      if (hover && !(e.relatedTarget instanceof Node && hover.a.contains(e.relatedTarget))) cancel();
    }, listen);
  }

  // The page's links, once, in an idle period: the popup's summary, and the eager links fetched now.
  idle(() => {
    const counts: Partial<Record<LinkRefusal, number>> = {};
    const safe = new Set<string>();
    for (const a of [...document.querySelectorAll('a[href]')].slice(0, MAX_SCANNED)) {
      if (!(a instanceof HTMLAnchorElement)) continue;
      const why = refusal(a);
      if (why) counts[why] = (counts[why] ?? 0) + 1;
      else safe.add(a.href.split('#')[0] ?? a.href);
    }
    send({ channel: 'content', type: 'speculation-links', candidates: safe.size, refused: counts });
    for (const url of context.frequent) if (safe.has(url)) speculate(url, 'frequent');
  });
}

function facts(a: HTMLAnchorElement): LinkFacts {
  const text = (a.textContent ?? '').trim() || a.getAttribute('aria-label') || a.title || '';
  return { href: a.href, text: text.slice(0, 200), download: a.hasAttribute('download'), target: a.target };
}

/** How the browser delivered this document, from its own Navigation Timing and LCP entries. */
async function servedReport(): Promise<ServedReport> {
  const nav = performance.getEntriesByType('navigation')[0] as (PerformanceNavigationTiming & { deliveryType?: string; activationStart?: number }) | undefined;
  const activation = nav?.activationStart ?? 0;
  const onClock = (t: number) => Math.max(0, Math.round((t - activation) * 10) / 10);
  const lcp = await largestPaint();
  return {
    deliveryType: nav?.deliveryType ?? '',
    prerendered: activation > 0,
    navigationType: nav?.type ?? 'navigate',
    responseStartMs: onClock(nav?.responseStart ?? 0),
    ...(lcp !== undefined ? { lcpMs: onClock(lcp) } : {}),
    ...(nav && nav.encodedBodySize > 0 ? { encodedBodySize: nav.encodedBodySize } : {}),
  };
}

/**
 * Whether the browser's HTTP cache holds this document now: a same-origin `only-if-cached` read,
 * answered from the cache or failed, never sent to the server (Fetch: "only-if-cached"). What
 * lean capture knows of a `no-store` answer (follow-state.ts `documentKept`).
 */
async function documentKept(): Promise<boolean | undefined> {
  try {
    const response = await fetch(location.href, { cache: 'only-if-cached', mode: 'same-origin', credentials: 'include', redirect: 'error' });
    void response.body?.cancel();
    return true;
  } catch (err) {
    // A miss is a network error (TypeError); anything else (no fetch, an aborted read) says nothing.
    return err instanceof TypeError ? false : undefined;
  }
}

/** The page's last largest-contentful-paint time, where the browser reports one (buffered, so after `load` too). */
function largestPaint(): Promise<number | undefined> {
  if (!PerformanceObserver.supportedEntryTypes?.includes('largest-contentful-paint')) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    let last: number | undefined;
    const observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) last = e.startTime;
    });
    observer.observe({ type: 'largest-contentful-paint', buffered: true });
    setTimeout(() => {
      observer.disconnect();
      resolve(last);
    }, LCP_WAIT_MS);
  });
}

void main();
