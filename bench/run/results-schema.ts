/**
 * The results file of `node dist/bench/bench.js` (`bench/results/bench-<quick|full>-latest.json`): the raw
 * form, every run. git keeps its summary and the raw file gzipped (bench/report/results-summary.ts).
 * Shared contract with the lower-bound model (bench/model/) and the report (bench/report/): change it
 * only together with them, and bump `RESULTS_SCHEMA_VERSION` when a field changes meaning.
 *
 * Units: times in ms, rates in bits/s, sizes in bytes, loss as a probability in [0, 1).
 */

import type { BenchError } from '../cli/bench-run-error';

export type { BenchError };

/** 3: Chromium's totalMs and meanTtfbMs come from CDP network events (were Resource Timing); cdpRequests, resourceTimingTotalMs added. */
export const RESULTS_SCHEMA_VERSION = 3;

/** The getlist CLI's `--strategy` values the benchmark runs. */
export type GetlistStrategy = 'http10' | 'serial' | 'browser' | 'pipelined' | 'getlist' | 'h2';
/**
 * A contender is a strategy on one scheme (schema version 2): the name says both, so a ratio of two
 * names never mixes schemes by accident. `getlist` and `browser` are those strategies over http
 * (HTTP/1.1); `getlist-tls` and `browser-tls` are the same strategies over https (`getlist-tls` may
 * negotiate h2, `browser-tls` is HTTP/1.1 over TLS). Run through `getlist load`.
 */
export type GetlistContender = GetlistStrategy | 'getlist-tls' | 'browser-tls';
export type ChromiumContender = 'chromium-h1' | 'chromium-h2';
export type ContenderName = GetlistContender | ChromiumContender;

/** Which URL scheme a contender loads: http ⇒ HTTP/1.1 only; https ⇒ ALPN may pick h2. */
export type Scheme = 'http' | 'https';

export interface BenchMeta {
  schemaVersion: number;
  /** ISO 8601, when the run started. */
  date: string;
  elapsedMs: number;
  mode: 'quick' | 'full';
  /** Runs per contender per cell by default; a link may run fewer (quick: the DSL links). `runs.length` is authoritative. */
  runs: number;
  /** Links run at once (`--jobs`); absent in files written before it existed (= 1). */
  jobs?: number;
  machine: { cpus: number; cpuModel: string; kernel: string; memoryGiB: number };
  node: string;
  /** e.g. "Chromium 138.0.7204.183", or undefined when Chromium was not found. */
  chromium: string | undefined;
  /** e.g. "nginx/1.26.3". */
  nginx: string | undefined;
  /** TCP as the link's namespaces run it (identical for every link of one run). */
  link: {
    congestionControl: string; slowStartAfterIdle: number; initCwnd: number; initRwnd: number; mtu: number;
    /** How the namespaces were made: as root, or rootless in a user namespace. Absent in older files. */
    privilege?: 'root' | 'rootless';
  } | undefined;
  gitCommit: string | undefined;
  gitDirty: boolean | undefined;
  /** The command line that produced the file. */
  command: string;
  /** Scheme per contender, as run. */
  schemes: Record<ContenderName, Scheme>;
  /**
   * Cells taken out of the file after the run, each with why (typically: measured again, alone, in
   * another results file, which the report may then merge without a duplicate cell). Absent = none.
   */
  removedCells?: RemovedCell[];
}

export interface RemovedCell {
  page: string;
  link: string;
  reason: string;
}

export interface LinkParams {
  rttMs: number;
  /** 0 = unlimited. */
  downBitsPerSec: number;
  upBitsPerSec: number;
  loss: number;
}

export interface PageInfo {
  /** Requests including the document. */
  requests: number;
  /** Response body bytes of all requests including the document. */
  bytes: number;
  /** Distinct origins (host names) the page's requests go to. */
  origins: number;
  /**
   * Discovery depth: 1 = the document only, 2 = resources named by the HTML, 3 = resources named by
   * those (e.g. a stylesheet's background images), …
   */
  dependencyDepth: number;
}

/** One page load. A failed load has `errors ≥ 1`; its times are still what was measured (or NaN→null). */
export interface RunResult {
  /**
   * getlist: the CLI's totalMs. Chromium: from its CDP network events, the document request's
   * Network.requestWillBeSent → the latest Network.loadingFinished of any of the page's requests
   * (the tab's; favicon and data: URLs left out), so requests without a Resource Timing entry count too.
   */
  totalMs: number | null;
  /**
   * getlist: mean over requests of first byte − when the request became known (discovery).
   * Chromium: from CDP network events, mean over the page's subresources (document excluded) of
   * response headers received (response.timing.requestTime + receiveHeadersEnd) − the request's
   * Network.requestWillBeSent timestamp. requestWillBeSent is when the renderer issued the request,
   * after discovery (the parser or preload scanner found the URL) and before any wait for a
   * connection; so it includes that wait but not any delay between discovery and issue, where
   * getlist counts from discovery. Close, not the same definition.
   */
  meanTtfbMs: number | null;
  /** Distinct nginx `$connection` serials in the access log for this run (all contenders alike). */
  connectionsOpened: number;
  /** Requests the access log saw in this run / connectionsOpened. */
  requestsPerConnection: number;
  /**
   * Failed requests, or 1 for a failed load. getlist: its own count. Chromium: non-2xx responses in
   * the access log + page requests the server never saw.
   */
  errors: number;
  /** Contender's own count of connections (getlist CLI's connectionsOpened; absent for Chromium). */
  clientConnections?: number;
  /** Requests the access log saw for this run. */
  serverRequests: number;
  /** Negotiated protocols seen (getlist handshakes / Chromium CDP response.protocol), e.g. ["h2"]. */
  protocols: string[];
  /**
   * Chromium only, diagnostic: paths the server answered that have no Resource Timing entry (e.g.
   * fonts and images requested by other-origin stylesheets). `totalMs` and `meanTtfbMs` come from CDP
   * and do cover them; only `resourceTimingTotalMs` does not.
   */
  missingTimingEntries?: string[];
  /** Chromium only: the page's requests seen as CDP network events (document included, favicon not); compare with `serverRequests`. */
  cdpRequests?: number;
  /**
   * Chromium only, cross-check: navigation startTime → the latest responseEnd in Resource Timing
   * (the measure before schema version 3). Counts from navigation start, a ms or so before the
   * document's requestWillBeSent, so it normally reads a few ms above `totalMs`; it reads below it when
   * the last request to finish has no entry. null when there was no navigation entry.
   */
  resourceTimingTotalMs?: number | null;
  /** Set when the load itself failed (timeout, crash, bad JSON). */
  error?: BenchError;
}

/** Per-field summary over the runs without `error` (null when none succeeded). */
export interface RunSummary {
  totalMs: number | null;
  meanTtfbMs: number | null;
  connectionsOpened: number | null;
  requestsPerConnection: number | null;
  errors: number | null;
}

export interface ContenderResult {
  contender: ContenderName;
  scheme: Scheme;
  runs: RunResult[];
  median: RunSummary;
  min: RunSummary;
  max: RunSummary;
}

export interface CellResult {
  page: string;
  /** Preset name, e.g. "pm95", "mcmanus-100", "spdy-dsl-80-0", "mobile". */
  link: string;
  linkParams: LinkParams;
  pageInfo: PageInfo;
  contenders: ContenderResult[];
  /** Set when the whole cell (link, nginx) could not run; contenders is then empty or partial. */
  error?: BenchError;
}

export interface BenchResults {
  meta: BenchMeta;
  cells: CellResult[];
}
