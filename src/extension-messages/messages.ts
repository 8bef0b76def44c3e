import type { HandshakeStatsJSON } from '../stats/handshake-stats';
import type { StoreHealth } from '../protocol/store-health';
import type { Discovery, NavigationTiming, PageRecord, TimingEntry } from '../page/model/page-record';

/**
 * Runtime messages inside the extension, by channel. Trust levels (uBlock-style): a content
 * script may only send `ContentMessage`s; everything in `UiRequest` is accepted only from the
 * extension's own pages (popup, options) — the background checks `sender` before dispatching.
 * Every UI request gets a `UiResponse` of the matching `type`, or `{ type: 'error', code, message }`.
 */
export type ContentMessage =
  | { channel: 'content'; type: 'discoveries'; items: Discovery[] }
  | { channel: 'content'; type: 'timings'; entries: TimingEntry[]; navigation?: NavigationTiming };

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
  /**
   * Let a public page's list make the host connect to loopback, link-local or private addresses
   * (Private Network Access). Off, the host refuses such targets with `E_PRIVATE_NETWORK`. @default false
   */
  allowPrivateNetwork: boolean;
}

export const DEFAULT_SETTINGS: Settings = { autoReplay: false, replayStrategies: ['browser', 'getlist'], excludedSites: [], retentionDays: 90, allowPrivateNetwork: false };

export type UiRequest =
  | { channel: 'ui'; type: 'get-page'; tabId: number }
  | { channel: 'ui'; type: 'run-replay'; tabId: number; strategies?: string[] }
  | { channel: 'ui'; type: 'host-status' }
  | { channel: 'ui'; type: 'stats'; origin?: string; since?: number; until?: number }
  | { channel: 'ui'; type: 'export'; format: 'csv' | 'json' | 'prom'; origin?: string; since?: number }
  | { channel: 'ui'; type: 'forget'; origin?: string }
  | { channel: 'ui'; type: 'get-settings' }
  | { channel: 'ui'; type: 'set-settings'; settings: Partial<Settings> };

export type UiResponse =
  | { type: 'get-page'; page: PageRecord | null; restricted: boolean; hostStatus: HostStatus }
  | { type: 'run-replay'; started: boolean }
  | { type: 'host-status'; status: HostStatus }
  | { type: 'stats'; stats: HandshakeStatsJSON; storeHealth?: StoreHealth }
  | { type: 'export'; format: string; mimeType: string; data: string }
  | { type: 'forget'; removed: number }
  | { type: 'get-settings'; settings: Settings }
  | { type: 'set-settings'; settings: Settings }
  | { type: 'error'; code: string; message: string };
