/**
 * `navigate.js --trace-summary DIR`: one row per traced step (walk.ts `--trace`), where its time
 * went inside Chromium (view-trace.ts), and per file prefix (contender, cache, link) the medians.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { median } from '../../src/stats/median';
import { BenchRunError } from '../cli/bench-run-error';
import { readViewTrace, summarizeViewTrace, type ViewTrace } from './view-trace';

const cell = (x: number | null): string => (x === null || Number.isNaN(x) ? '–' : String(Math.round(x)));

const browserMainMs = (t: ViewTrace): number => Object.entries(t.mainThreadMsBeforeFcp).find(([k]) => k.startsWith('CrBrowserMain'))?.[1] ?? 0;

function row(name: string, t: ViewTrace): string {
  const injected = t.injectionsBeforeFcp.reduce((a, i) => a + i.ms, 0);
  const browserMain = browserMainMs(t);
  return `| ${name} | ${cell(t.commitMs)} | ${cell(t.domContentLoadedMs)} | ${cell(t.loadMs)} | ${cell(t.firstFrameMs)} | ${cell(t.fcpMs)} | ${t.injectionsBeforeFcp.length} (${cell(injected)} ms) | ${cell(t.storageWriteMsBeforeFcp)} | ${cell(browserMain)} |`;
}

/** The table for every `*.json` / `*.json.gz` trace in `dir`, steps in order within each prefix. */
export function traceSummary(dir: string): string {
  const usage = (message: string) => new BenchRunError('E_BENCH_USAGE', `--trace-summary: ${message}`);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    throw usage(`cannot read ${dir}: ${(err as Error).message}`);
  }
  const files = names.filter((f) => /-\d+\.json(\.gz)?$/.test(f));
  if (files.length === 0) throw usage(`${dir} holds no trace written by --trace (<contender>-<cache>-<link>-<step>.json)`);
  const byPrefix = new Map<string, Array<{ step: number; file: string; t: ViewTrace }>>();
  for (const file of files) {
    const [, prefix, step] = /^(.*)-(\d+)\.json(?:\.gz)?$/.exec(file) ?? [];
    const t = summarizeViewTrace(readViewTrace(join(dir, file), usage));
    if (prefix === undefined || t === null) continue;
    byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), { step: Number(step), file, t }]);
  }
  const head = '| step | commit | DOMContentLoaded | load | first frame | FCP | extension scripts before FCP | storage writes before FCP (ms) | browser main thread before FCP (ms) |';
  const lines = [head, `|${'---|'.repeat(9)}`];
  for (const [prefix, steps] of [...byPrefix].sort()) {
    steps.sort((a, b) => a.step - b.step);
    for (const s of steps) lines.push(row(`${prefix} ${s.step}`, s.t));
    const m = (f: (t: ViewTrace) => number | null) => median(steps.map((s) => f(s.t)).filter((x): x is number => x !== null));
    lines.push(`| **${prefix} median** | ${cell(m((t) => t.commitMs))} | ${cell(m((t) => t.domContentLoadedMs))} | ${cell(m((t) => t.loadMs))} | ${cell(m((t) => t.firstFrameMs))} | ${cell(m((t) => t.fcpMs))} | ${cell(m((t) => t.injectionsBeforeFcp.length))} | ${cell(m((t) => t.storageWriteMsBeforeFcp))} | ${cell(m(browserMainMs))} |`);
  }
  return lines.join('\n');
}
