/**
 * Reads a results file (bench/run/results-schema.ts) and checks the fields the report relies on, so a
 * truncated or foreign file fails with `E_REPORT_INPUT` and the path of the first bad field instead
 * of a TypeError deep inside a table. Whether several files may be merged is checked in
 * merge-results.ts.
 *
 * A file may be raw (as bench.js writes it, every run) or a summary (results-summary.ts, a digest in
 * place of each contender's runs), and either may be gzipped. Both come out as a
 * {@link ResultsSummary}: the report never sees the runs themselves.
 */
import { readFileSync } from 'node:fs';
import { CodedError } from '../../src/core/coded-error';
import { textOf } from '../cli/results-file';
import type { ContenderResult } from '../run/results-schema';
import { summarizeContender, type ResultsSummary } from './results-summary';

export class ReportError extends CodedError<'E_REPORT_INPUT' | 'E_REPORT_USAGE' | 'E_REPORT_DUPLICATE_CELL'> {
  override readonly name = 'ReportError';
  /**
   * @param help the message is the `--help` text, asked for: print it on stdout and exit 0.
   */
  constructor(code: 'E_REPORT_INPUT' | 'E_REPORT_USAGE' | 'E_REPORT_DUPLICATE_CELL', message: string, readonly help = false) {
    super(code, message);
  }
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNumberOrNull = (v: unknown): boolean => v === null || v === undefined || typeof v === 'number';

function fail(where: string, expected: string, got: unknown): never {
  const shown = got === undefined ? 'nothing' : JSON.stringify(got)?.slice(0, 60);
  throw new ReportError('E_REPORT_INPUT', `${where} should be ${expected}; got ${shown}`);
}

function checkSummary(s: unknown, where: string): void {
  if (!isObject(s)) fail(where, 'an object', s);
  for (const f of ['totalMs', 'meanTtfbMs', 'connectionsOpened', 'requestsPerConnection']) {
    if (!isNumberOrNull(s[f])) fail(`${where}.${f}`, 'a number or null', s[f]);
  }
}

function checkCell(c: unknown, i: number): void {
  const at = `cells[${i}]`;
  if (!isObject(c)) fail(at, 'an object', c);
  if (typeof c.page !== 'string') fail(`${at}.page`, 'a page name', c.page);
  if (typeof c.link !== 'string') fail(`${at}.link`, 'a link preset name', c.link);
  const lp = c.linkParams;
  if (!isObject(lp)) fail(`${at}.linkParams`, 'an object', lp);
  for (const f of ['rttMs', 'downBitsPerSec', 'upBitsPerSec', 'loss']) {
    if (typeof lp[f] !== 'number') fail(`${at}.linkParams.${f}`, 'a number', lp[f]);
  }
  if (!Array.isArray(c.contenders)) fail(`${at}.contenders`, 'an array', c.contenders);
  c.contenders = c.contenders.map((k: unknown, j: number) => {
    const w = `${at}.contenders[${j}]`;
    if (!isObject(k)) fail(w, 'an object', k);
    if (typeof k.contender !== 'string') fail(`${w}.contender`, 'a contender name', k.contender);
    if (k.scheme !== 'http' && k.scheme !== 'https') fail(`${w}.scheme`, '"http" or "https"', k.scheme);
    for (const s of ['median', 'min', 'max']) checkSummary(k[s], `${w}.${s}`);
    if (k.digest !== undefined && k.runs === undefined) {
      checkDigest(k.digest, `${w}.digest`);
      return k;
    }
    if (!Array.isArray(k.runs)) fail(`${w}.runs`, 'an array (or, in a summary, a digest)', k.runs);
    k.runs.forEach((r: unknown, n: number) => {
      if (!isObject(r) || typeof r.errors !== 'number') fail(`${w}.runs[${n}].errors`, 'a number', isObject(r) ? r.errors : r);
    });
    return summarizeContender(k as unknown as ContenderResult);
  });
}

function checkDigest(d: unknown, where: string): void {
  if (!isObject(d)) fail(where, 'an object', d);
  for (const f of ['count', 'withErrors']) if (typeof d[f] !== 'number') fail(`${where}.${f}`, 'a number', d[f]);
  if (!Array.isArray(d.failures)) fail(`${where}.failures`, 'an array', d.failures);
  if (d.cdp === undefined) return;
  if (!isObject(d.cdp)) fail(`${where}.cdp`, 'an object', d.cdp);
  for (const f of ['requests', 'serverRequests', 'resourceTimingTotalMs']) {
    const list = d.cdp[f];
    if (!Array.isArray(list) || list.length !== d.count) fail(`${where}.cdp.${f}`, `an array of ${String(d.count)} (one per run)`, list);
  }
}

/** `meta.removedCells`: each names a page, a link and why, and is no longer among the cells. */
function checkRemoved(removed: unknown, cells: readonly Json[]): void {
  if (removed === undefined) return;
  if (!Array.isArray(removed)) fail('meta.removedCells', 'an array', removed);
  removed.forEach((r: unknown, i: number) => {
    const at = `meta.removedCells[${i}]`;
    if (!isObject(r)) fail(at, 'an object', r);
    for (const f of ['page', 'link', 'reason']) if (typeof r[f] !== 'string' || r[f] === '') fail(`${at}.${f}`, 'a non-empty string', r[f]);
    if (cells.some((c) => c.page === r.page && c.link === r.link)) fail(at, 'a cell no longer in the file', `${String(r.page)} @ ${String(r.link)}`);
  });
}

/**
 * Parses and checks the text of a results file. Throws {@link ReportError} `E_REPORT_INPUT`, its
 * message starting with `name` (the file's path when there is one).
 */
export function parseResults(text: string, name = 'results file'): ResultsSummary {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new ReportError('E_REPORT_INPUT', `${name} is not JSON: ${(err as Error).message}`);
  }
  try {
    if (!isObject(doc)) fail('the document', 'an object with meta and cells', doc);
    if (!isObject(doc.meta)) fail('meta', 'an object', doc.meta);
    if (!Array.isArray(doc.cells)) fail('cells', 'an array', doc.cells);
    doc.cells.forEach(checkCell);
    checkRemoved(doc.meta.removedCells, doc.cells as Json[]);
  } catch (err) {
    if (err instanceof ReportError) throw new ReportError(err.code, `${name}: ${err.message}`);
    throw err;
  }
  return { meta: doc.meta, cells: doc.cells } as unknown as ResultsSummary;
}

/** The text of a results file, gunzipped when it is gzip (by its magic bytes, whatever its name). */
export function resultsText(bytes: Buffer, name: string): string {
  return textOf(bytes, name, (message) => new ReportError('E_REPORT_INPUT', message));
}

/** Reads and checks a results file: raw or summary, plain or gzipped. `read` is for tests. */
export function readResults(path: string, read: (path: string) => Buffer = readFileSync): ResultsSummary {
  let bytes: Buffer;
  try {
    bytes = read(path);
  } catch (err) {
    throw new ReportError('E_REPORT_INPUT', `cannot read ${path}: ${(err as Error).message}`);
  }
  return parseResults(resultsText(bytes, path), path);
}
