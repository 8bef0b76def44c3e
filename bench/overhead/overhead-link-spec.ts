/**
 * `--link` of the overhead benchmark: the packet-level links it runs over, by preset name
 * (bench/run/link-presets.ts) or as `RTT/RATE`: round trip in ms, bottleneck rate in Mbit/s each
 * way or `none` for no cap (`40/none`, `100/20`). A comma list runs each link in turn.
 */
import { BenchRunError } from '../cli/bench-run-error';
import { linkPreset } from '../run/link-presets';
import type { LinkParams } from '../run/results-schema';

export interface OverheadLinkSpec {
  /** As the table shows it: `40 ms, no cap`, `100 ms, 20 Mbit/s`, or the preset's name. */
  name: string;
  params: LinkParams;
}

const usage = (message: string): BenchRunError => new BenchRunError('E_BENCH_USAGE', message);
const FORMAT = 'a preset name (e.g. mcmanus-100) or RTT/RATE: RTT in ms, RATE in Mbit/s or none (e.g. 40/none, 100/20)';
/** The link emulator's range (bench/link/link-options.ts): RTT ≤ 10 s, a rate ≥ 1 kbit/s. */
const MAX_RTT_MS = 10_000;
const MIN_RATE_MBIT = 0.001;

const bad = (spec: string, why: string): BenchRunError => usage(`--link ${JSON.stringify(spec)}: ${why}; expected ${FORMAT}`);

function number(text: string, what: string, spec: string): number {
  if (!/^\d+(?:\.\d+)?$/.test(text)) throw bad(spec, `${what} must be a number`);
  return Number(text);
}

/** One link; throws E_BENCH_USAGE (or E_BENCH_UNKNOWN_LINK for a name that is no preset) saying what was expected. */
export function parseOverheadLink(spec: string): OverheadLinkSpec {
  const s = spec.trim();
  const slash = /^([^/]*)\/([^/]*)$/.exec(s);
  if (slash === null) return { name: s, params: linkPreset(s) };
  const rttMs = number(slash[1] ?? '', 'the RTT', spec);
  if (rttMs > MAX_RTT_MS) throw bad(spec, `RTT ${rttMs} ms is more than ${MAX_RTT_MS} ms`);
  const rateText = (slash[2] ?? '').toLowerCase();
  if (rateText === 'none') return { name: `${rttMs} ms, no cap`, params: { rttMs, downBitsPerSec: 0, upBitsPerSec: 0, loss: 0 } };
  const mbit = number(rateText, 'the rate', spec);
  if (mbit < MIN_RATE_MBIT) throw bad(spec, `rate ${mbit} Mbit/s is below ${MIN_RATE_MBIT} (write none for no cap)`);
  const bits = Math.round(mbit * 1_000_000);
  return { name: `${rttMs} ms, ${mbit} Mbit/s`, params: { rttMs, downBitsPerSec: bits, upBitsPerSec: bits, loss: 0 } };
}

/** A comma list of links; the same link twice is a usage error (its cells would collide). */
export function parseOverheadLinks(list: readonly string[]): OverheadLinkSpec[] {
  const links = list.map(parseOverheadLink);
  const seen = new Set<string>();
  for (const l of links) {
    if (seen.has(l.name)) throw usage(`--link: ${l.name} is given twice`);
    seen.add(l.name);
  }
  return links;
}
