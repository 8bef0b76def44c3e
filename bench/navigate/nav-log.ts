/** The navigation site's access log (format: nav-nginx.ts NAV_LOG_FORMAT), parsed. */
import { readTextFile } from '../cli/results-file';

export interface NavLogEntry {
  /** Epoch seconds with millisecond resolution, when the response was logged. */
  msec: number;
  host: string;
  status: number;
  /** Bytes sent to the client, headers included. */
  bytes: number;
  /** The request URI as the client sent it, query included. */
  uri: string;
  /** `Sec-Purpose` (Chromium's speculation rules: `prefetch`, `prefetch;prerender`), '' when absent. */
  secPurpose: string;
  /** `X-Moz` (Firefox's `<link rel=prefetch>`: `prefetch`), '' when absent. */
  xMoz: string;
  /** `Sec-Fetch-Dest` and `Sec-Fetch-Mode` ('' when absent or in an older log): who asked, and how. */
  fetchDest?: string;
  fetchMode?: string;
  /** nginx's connection serial number, and the `Referer` ('' when absent). */
  connection?: number;
  referer?: string;
  /** The request's `Range` ('' when none): a browser resuming a body it holds in part asks for the rest. */
  range?: string;
}

const LINE = /^(\S+) (\S+) (\d{3}) (\d+) (\S+) "([^"]*)" "([^"]*)" "([^"]*)"(?: "([^"]*)" "([^"]*)" (\d+) "([^"]*)" "([^"]*)")?$/;
const header = (v: string | undefined): string => (v === undefined || v === '-' ? '' : v);

export function parseNavLog(text: string): NavLogEntry[] {
  const out: NavLogEntry[] = [];
  for (const line of text.split('\n')) {
    const m = LINE.exec(line);
    if (m === null) continue;
    out.push({ msec: Number(m[1]), host: m[2] ?? '', status: Number(m[3]), bytes: Number(m[4]), uri: m[6] ?? '', secPurpose: header(m[7]), xMoz: header(m[8]), ...(m[9] !== undefined ? { fetchDest: header(m[9]), fetchMode: header(m[10]), connection: Number(m[11]), referer: header(m[12]), range: header(m[13]) } : {}) });
  }
  return out;
}

/** Whether a browser marked the request as fetched ahead of a navigation. */
export const isSpeculative = (e: NavLogEntry): boolean => e.secPurpose !== '' || /prefetch/i.test(e.xMoz);

/** One line of `navigate.js --logs`: a log entry with the run it belongs to. */
export interface RunLogLine extends NavLogEntry {
  browser: string;
  link: string;
  cache: string;
  contender: string;
  /** The run's walk of its cell (`--walks N`); absent: the cell's only walk. */
  walk?: number;
  step: number;
}

/** The lines a run wrote with `--logs` (plain or gzipped JSON lines). */
export function readRunLogs(path: string, fail: (message: string) => Error): RunLogLine[] {
  return readTextFile(path, fail).split('\n').filter((l) => l.trim() !== '').map((l, i) => {
    try {
      return JSON.parse(l) as RunLogLine;
    } catch (err) {
      throw fail(`${path} line ${i + 1} is not JSON: ${(err as Error).message}`);
    }
  });
}
