import type { LinkRefusal, SiteFacts } from './link-safety';
import type { PageRefusal } from './page-gate';
import type { Eagerness } from './speculation-settings';

/** Which links one page's visits went on to follow: the page key's visits and, per target page key, how many followed it. */
export interface PageFollows {
  visits: number;
  follows: Record<string, number>;
}

/** A document's timing as its own Navigation Timing gave it (ms from navigation start; a prerender's from its activation). */
export interface ServedTiming {
  responseStartMs: number;
  lcpMs?: number;
}

/** A site's speculations and what became of them (counted when the tab leaves the page that made them). */
export interface SiteOutcome {
  /** Documents asked for ahead. */
  speculated: number;
  /** Of those, the one the tab went to next. */
  followed: number;
  /** Body bytes (`encodedBodySize` of the document's last visit) of those not followed. */
  wastedBytes: number;
  /** Not followed, and never visited, so their size is not known. */
  wastedUnsized: number;
}

/**
 * What getlist keeps to speculate, in `storage.local` (never from private windows). Every map is
 * bounded and kept least recently written first (a write re-inserts its key).
 */
export interface SpeculationState {
  /** By page key (the URL without its fragment). */
  pages: Map<string, PageFollows>;
  /** Query parameter names seen on visited pages, by template key (site-template.ts). */
  queryKeys: Map<string, string[]>;
  /** Page keys whose document answered `Cache-Control: no-store` (seen in Detailed capture). */
  noStore: Set<string>;
  /** Page key → its document's `encodedBodySize` on its last visit. */
  docBytes: Map<string, number>;
  /** Page key → its last visits not served from a speculation, newest last. */
  baselines: Map<string, ServedTiming[]>;
  /** Hostname → outcome. */
  sites: Map<string, SiteOutcome>;
}

/** What a page's speculation script needs: the background's answer to its `speculation-ready`. */
export interface SpeculationContext {
  /** `prefetch`, or `prerender` where the user allowed it. */
  action: 'prefetch' | 'prerender';
  eagerness: Eagerness;
  /** Page keys most earlier visits of this page followed (eager: fetched at once). */
  frequent: string[];
  /**
   * Same-origin page keys this browser has loaded before. A hover prerenders only these: their
   * subresources are mostly in the HTTP cache, so a prerender nobody clicks costs little. Any
   * other hovered page is prefetched (its document only).
   */
  visited: string[];
  site: SiteFacts;
  /** Documents one page may ask for ahead, at most. */
  maxPerPage: number;
}

/** What a page reports of itself: how its document was delivered (Navigation Timing). */
export interface ServedReport {
  /** `deliveryType` (Chromium: `navigational-prefetch`, `cache`, or ''); '' where the browser has none. */
  deliveryType: string;
  /** `activationStart` > 0: the page was prerendered and shown on the click. */
  prerendered: boolean;
  /** `navigate`, `reload`, `back_forward`… */
  navigationType: string;
  /** `responseStart`, minus `activationStart` for a prerendered page (0 when it had the response before the click). */
  responseStartMs: number;
  /** Largest contentful paint, on the same clock, where the browser reports it. */
  lcpMs?: number;
  /** The document's `encodedBodySize`. */
  encodedBodySize?: number;
}

/** The popup's view of the tab's page. */
export interface SpeculationView {
  host: string;
  /** Why the page gets no speculation; null: it may. */
  refusal: PageRefusal | null;
  siteDisabled: boolean;
  /** How this document was delivered (null: not reported yet). */
  served: (ServedReport & { via: 'prefetch' | 'prerender' | 'network' }) | null;
  /** Medians of the page's earlier visits not served from a speculation. */
  baseline: (ServedTiming & { visits: number }) | null;
  /** Baseline minus this visit, per figure, when this visit was speculated and there is a baseline. */
  saved: { responseStartMs: number; lcpMs?: number } | null;
  /** Documents this page asked the browser to fetch ahead so far. */
  speculatedHere: string[];
  /** This page's links: how many may be speculated and why the others may not. */
  links: { candidates: number; refused: Partial<Record<LinkRefusal, number>> } | null;
  site: SiteOutcome & { hitRate: number | null };
}
