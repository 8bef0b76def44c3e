/**
 * A results file reduced to what the report reads: per cell and contender the median, min and max,
 * and in place of the runs a {@link RunsDigest}. The full matrix's raw files are 0.3–0.7 MB each;
 * their summaries are what git keeps beside RESULTS.md (bench/results/*.json), with the raw files
 * gzipped under bench/results/raw/.
 *
 * Invariant: the report of a summary is byte-identical to the report of the raw file it came from,
 * because the report reads every results file through {@link summarizeResults} (load-results.ts)
 * and nothing else of the runs.
 */
import type { BenchError, BenchMeta, CellResult, ContenderResult, RunResult } from '../run/results-schema';

/** What the report prints of a contender's runs. */
export interface RunsDigest {
  /** Runs made, successful or not. */
  count: number;
  /** Runs that failed (`error`) or had failed requests (`errors > 0`). */
  withErrors: number;
  /** Each failed load's error, in run order. */
  failures: BenchError[];
  /** Chromium's cross-checks, one entry per run in run order; absent when no run has CDP counts. */
  cdp?: {
    /** Requests seen as CDP network events; null for a run without the count. */
    requests: Array<number | null>;
    /** Requests the server's access log saw. */
    serverRequests: number[];
    /** Resource Timing page complete; null when the run had none. */
    resourceTimingTotalMs: Array<number | null>;
    /** The most served paths any one run had no Resource Timing entry for. */
    maxMissingTimingEntries: number;
  };
}

export interface ContenderSummary extends Omit<ContenderResult, 'runs'> {
  digest: RunsDigest;
}

export interface CellSummary extends Omit<CellResult, 'contenders'> {
  contenders: ContenderSummary[];
}

/** A results file as the report reads it; a summary file on disk adds `raw`, where its runs are. */
export interface ResultsSummary {
  meta: BenchMeta;
  cells: CellSummary[];
}

export interface SummaryFile extends ResultsSummary {
  /** The raw results file, relative to this one, e.g. `raw/full-a.json.gz`. */
  raw: string;
}

export function digestRuns(runs: readonly RunResult[]): RunsDigest {
  const digest: RunsDigest = {
    count: runs.length,
    withErrors: runs.filter((r) => r.error !== undefined || r.errors > 0).length,
    failures: runs.flatMap((r) => (r.error ? [{ code: r.error.code, message: r.error.message }] : [])),
  };
  if (runs.some((r) => r.cdpRequests !== undefined)) {
    digest.cdp = {
      requests: runs.map((r) => r.cdpRequests ?? null),
      serverRequests: runs.map((r) => r.serverRequests),
      resourceTimingTotalMs: runs.map((r) => (typeof r.resourceTimingTotalMs === 'number' ? r.resourceTimingTotalMs : null)),
      maxMissingTimingEntries: Math.max(0, ...runs.map((r) => r.missingTimingEntries?.length ?? 0)),
    };
  }
  return digest;
}

export function summarizeContender(k: ContenderResult): ContenderSummary {
  const { runs, ...rest } = k;
  return { ...rest, digest: digestRuns(runs) };
}

export function summarizeCell(c: CellResult): CellSummary {
  return { ...c, contenders: c.contenders.map(summarizeContender) };
}

/**
 * The text of a summary file: meta indented, then one line per cell and per contender, so a diff
 * of two summaries shows which cells changed. `JSON.parse` of it equals the summary.
 */
export function summaryFileText(summary: ResultsSummary, raw: string): string {
  const indent = (text: string, by: string): string => text.split('\n').join(`\n${by}`);
  const cells = summary.cells.map((c) => {
    const { contenders, ...rest } = c;
    const head = JSON.stringify(rest).slice(0, -1);
    const list = contenders.map((k) => `      ${JSON.stringify(k)}`).join(',\n');
    return `    ${head}${head.endsWith('{') ? '' : ', '}"contenders": [${list ? `\n${list}\n    ` : ''}]}`;
  });
  return [
    '{',
    `  "raw": ${JSON.stringify(raw)},`,
    `  "meta": ${indent(JSON.stringify(summary.meta, null, 2), '  ')},`,
    `  "cells": [${cells.length ? `\n${cells.join(',\n')}\n  ` : ''}]`,
    '}',
    '',
  ].join('\n');
}
