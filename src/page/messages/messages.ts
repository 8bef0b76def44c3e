import type { HandshakeSource } from '../../stats/handshake';
import type { HandshakeStatsJSON } from '../../stats/handshake-stats';
import type { StoreHealth } from '../../protocol/store-health';
import type { AppliedSuggestion } from '../diagnosis/applied-suggestion';
import type { HintList } from '../hints/hint-types';
import type { HintOutcome } from '../hints/hint-outcome';
import type { LinkRefusal } from '../speculation/link-safety';
import type { ServedReport, SpeculationContext, SpeculationView } from '../speculation/speculation-types';
import type { Eagerness } from '../speculation/speculation-settings';
import type { Discovery, NavigationTiming, PageRecord, TimingEntry } from '../model/page-record';

/**
 * Runtime messages inside the extension, by channel. Trust levels (uBlock-style): a content
 * script may only send `ContentMessage`s; everything in `UiRequest` is accepted only from the
 * extension's own pages (popup, options) — the background checks `sender` before dispatching.
 * Every UI request gets a `UiResponse` of the matching `type`, or `{ type: 'error', code, message }`.
 */
export type ContentMessage =
  | {
      channel: 'content';
      type: 'discoveries';
      items: Discovery[];
      loadedAt?: number;
      /** The style scan ran to its end with this message: every rendered element's CSS background was reported. */
      styleScanned?: true;
    }
  | {
      channel: 'content';
      type: 'timings';
      entries: TimingEntry[];
      navigation?: NavigationTiming;
      /** The page's Resource Timing buffer was full before the script could observe it (PageRecord.timingsBufferFull). */
      bufferFull?: boolean;
      /**
       * Epoch ms of the reporting document's `load` event. A document's last reports go at
       * `pagehide`, when the tab's next document may have committed already: a report from a
       * document that loaded before the record's commit belongs to an earlier page (page-reducer.ts).
       */
      loadedAt?: number;
      /** `document.cookie` was not empty (PageRecord.documentCookies). */
      documentCookies?: boolean;
    }
  | SpeculationMessage;

/**
 * The speculation script's messages (extension/content/speculate.ts): `speculation-ready` reports how
 * the document was served and asks for its SpeculationContext (the reply; null: none), then
 * `speculation-links` what its links allow and `speculated` each document it asked for ahead.
 */
export type SpeculationMessage =
  | { channel: 'content'; type: 'speculation-ready'; served: ServedReport; saveData: boolean; ownRules: boolean; rulesSupported?: boolean }
  | { channel: 'content'; type: 'speculation-links'; candidates: number; refused: Partial<Record<LinkRefusal, number>> }
  | { channel: 'content'; type: 'speculated'; url: string; action: 'prefetch' | 'prerender' }
  /**
   * Whether the browser's HTTP cache held the document once it was shown (a `cache: 'only-if-cached'`
   * read, which never reaches the network), sent when the reply asked for it (`readCache`). A
   * document answered `Cache-Control: no-store` is never held.
   */
  | { channel: 'content'; type: 'speculation-kept'; kept: boolean };

/** The background's answer to `speculation-ready`: the page's context, or null when it gets no speculation. */
export interface SpeculationReply {
  type: 'speculation-context';
  context: SpeculationContext | null;
  /**
   * Lean capture: report what the cache kept of this document (`speculation-kept`), its only
   * evidence of `no-store`. Detailed capture reads the header instead, and would record the read
   * as one of the page's requests.
   */
  readCache?: boolean;
}

/** A document's learned hints, pushed into it at commit (hint-push.ts): null when it gets none (or they go by DNR header). */
export interface ContentHintsReply {
  type: 'hints';
  list: HintList | null;
}

export interface HostStatus {
  /** `ok`: hello answered; `missing`: the browser could not start the host; `error`: it started but failed. */
  state: 'ok' | 'missing' | 'error' | 'unknown';
  hostVersion?: string;
  message?: string;
  /** The command(s) that fix it: this installation's `… doctor`, or how to install the host. */
  fix?: string;
  /** The host store's health, from its latest hello, measured or stats reply. */
  store?: StoreHealth;
  /** This installation's CLI (`node …/bin/getlist.js`), as the host reported it in `hello`. */
  cliCommand?: string;
}

export interface Settings {
  /** Replay automatically after every page load. @default false */
  autoReplay: boolean;
  /** Strategies a replay runs. @default ['browser', 'getlist'] */
  replayStrategies: string[];
  /** Hostnames (or `*.suffix`) that are neither measured nor replayed. @default [] */
  excludedSites: string[];
  /** Retention of stored handshakes, days. @default 90 */
  retentionDays: number;
  /** Absolute path to a PEM CA file the host trusts for replays (a local dev site's CA); '' for none. @default '' */
  caFile: string;
  /**
   * Early hints from learned lists (preconnect, preload) on pages visited before; a site never
   * visited has nothing learned, so it gets none. @default true
   */
  hints: boolean;
  /** Hostnames whose pages get no hints (the popup's per-site switch). @default [] */
  hintsDisabledSites: string[];
  /**
   * Let a public page's list make the host connect to loopback, link-local or private addresses
   * (Private Network Access). Off, the host refuses such targets with `E_PRIVATE_NETWORK`. @default false
   */
  allowPrivateNetwork: boolean;
  /**
   * Host mappings for replays, curl `--resolve` lines `HOST:PORT:ADDRESS` (e.g.
   * `myapp.test:443:127.0.0.1`): the host connects there while keeping the page's names, to replay
   * a local development site. Sent with each replay as the schedule's `hostMappings`. @default []
   */
  hostMappings: string[];
  /**
   * Fetch the next page before the click: same-origin links a pointer rests on, is pressed on, or
   * (eager) that most earlier visits followed (src/page/speculation/). @default true
   */
  speculation: boolean;
  /** Prerender instead of prefetch where the browser can (Chromium): the page runs before the click. @default false */
  prerender: boolean;
  /** When a link is fetched: `conservative` on pointerdown, `moderate` after a 200 ms hover too, `eager` also the link most visits followed, at once. @default 'moderate' */
  eagerness: Eagerness;
  /** Hostnames whose pages get no speculation (the popup's per-site switch). @default [] */
  speculationDisabledSites: string[];
}

export const DEFAULT_SETTINGS: Settings = {
  autoReplay: false,
  replayStrategies: ['browser', 'getlist'],
  excludedSites: [],
  retentionDays: 90,
  caFile: '',
  hints: true,
  hintsDisabledSites: [],
  allowPrivateNetwork: false,
  hostMappings: [],
  speculation: true,
  prerender: false,
  eagerness: 'moderate',
  speculationDisabledSites: [],
};

export type UiRequest =
  | { channel: 'ui'; type: 'get-page'; tabId: number }
  | { channel: 'ui'; type: 'run-replay'; tabId: number; strategies?: string[] }
  | { channel: 'ui'; type: 'host-status' }
  | { channel: 'ui'; type: 'stats'; source?: HandshakeSource; origin?: string; since?: number; until?: number }
  | { channel: 'ui'; type: 'export'; format: 'csv' | 'json' | 'prom'; source?: HandshakeSource; origin?: string; since?: number }
  /** One origin, or everything with `all: true`; never a bare forget (as the host's `forget`). */
  | { channel: 'ui'; type: 'forget'; origin: string }
  | { channel: 'ui'; type: 'forget'; all: true }
  | { channel: 'ui'; type: 'get-settings' }
  | { channel: 'ui'; type: 'set-settings'; settings: Partial<Settings> }
  | { channel: 'ui'; type: 'get-hints'; tabId: number }
  | { channel: 'ui'; type: 'get-speculation'; tabId: number }
  /** Applies the popup's suggestion for `href` (src/page/diagnosis/suggestions.ts) to the tab's page's next visits. */
  | { channel: 'ui'; type: 'apply-suggestion'; tabId: number; href: string }
  | { channel: 'ui'; type: 'get-suggestions'; tabId: number };

export type UiResponse =
  | { type: 'get-page'; page: PageRecord | null; restricted: boolean; hostStatus: HostStatus }
  | { type: 'run-replay'; started: boolean }
  | { type: 'host-status'; status: HostStatus }
  | { type: 'stats'; stats: HandshakeStatsJSON; storeHealth?: StoreHealth }
  | { type: 'export'; format: string; mimeType: string; data: string }
  | { type: 'forget'; removed: number }
  | { type: 'get-settings'; settings: Settings }
  | { type: 'set-settings'; settings: Settings }
  | { type: 'get-hints'; hints: HintsView }
  | { type: 'get-speculation'; speculation: SpeculationView }
  | { type: 'apply-suggestion'; applied: AppliedSuggestion | null }
  | { type: 'get-suggestions'; applied: AppliedSuggestion[] }
  | { type: 'error'; code: string; message: string };

/** The popup's view of the tab's hints: what was applied on this load and what became of it. */
export interface HintsView {
  /** The tab's page hostname ('' when none). */
  host: string;
  /** Hints on (globally) and not switched off for this site, nor the site excluded. */
  enabled: boolean;
  siteDisabled: boolean;
  /** The hints the tab's current load got (none: null). */
  applied: HintList | null;
  /** What became of them, once the load settled. */
  outcome: HintOutcome | null;
  /** Visits learned under the page's key and under its template's. */
  learnedVisits: { page: number; template: number };
}
