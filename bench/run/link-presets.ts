/**
 * The emulated links the benchmark runs on, by name. Each reproduces a setting from the papers:
 * pm95 = Padmanabhan & Mogul's T1-class path; mcmanus-* = McManus' broadband with 100 / 300 ms;
 * spdy-dsl-* = the SPDY whitepaper's DSL grid (2 Mbit/s down, 375 kbit/s up, RTT × loss);
 * mobile = a 3G-class phone link.
 */
import type { LinkParams } from './results-schema';
import { BenchRunError } from '../cli/bench-run-error';

export const SPDY_DSL_RTTS = [20, 40, 80, 120, 160, 200] as const;
/** Loss in percent. */
export const SPDY_DSL_LOSSES = [0, 0.5, 1, 2] as const;

const FIXED: Readonly<Record<string, LinkParams>> = {
  pm95: { rttMs: 70, downBitsPerSec: 1_544_000, upBitsPerSec: 1_544_000, loss: 0 },
  'mcmanus-100': { rttMs: 100, downBitsPerSec: 20_000_000, upBitsPerSec: 20_000_000, loss: 0 },
  'mcmanus-300': { rttMs: 300, downBitsPerSec: 20_000_000, upBitsPerSec: 20_000_000, loss: 0 },
  mobile: { rttMs: 150, downBitsPerSec: 1_600_000, upBitsPerSec: 750_000, loss: 0 },
};

/** `spdy-dsl-<rtt>-<loss%>`, e.g. `spdy-dsl-80-0`, `spdy-dsl-120-0.5`. */
export function spdyDslName(rttMs: number, lossPercent: number): string {
  return `spdy-dsl-${rttMs}-${lossPercent}`;
}

/** Every preset name: the fixed ones, then the SPDY DSL grid. */
export function linkPresetNames(): string[] {
  return [...Object.keys(FIXED), ...SPDY_DSL_RTTS.flatMap((r) => SPDY_DSL_LOSSES.map((l) => spdyDslName(r, l)))];
}

/** The parameters of a preset; throws `E_BENCH_UNKNOWN_LINK` naming the valid ones. */
export function linkPreset(name: string): LinkParams {
  const fixed = FIXED[name];
  if (fixed !== undefined) return { ...fixed };
  const m = /^spdy-dsl-(\d+)-(\d+(?:\.\d+)?)$/.exec(name);
  const rtt = Number(m?.[1]);
  const loss = Number(m?.[2]);
  if (m !== null && (SPDY_DSL_RTTS as readonly number[]).includes(rtt) && (SPDY_DSL_LOSSES as readonly number[]).includes(loss)) {
    return { rttMs: rtt, downBitsPerSec: 2_000_000, upBitsPerSec: 375_000, loss: loss / 100 };
  }
  throw new BenchRunError('E_BENCH_UNKNOWN_LINK', `unknown link preset ${JSON.stringify(name)}; expected ${Object.keys(FIXED).join(', ')} or spdy-dsl-<${SPDY_DSL_RTTS.join('|')}>-<${SPDY_DSL_LOSSES.join('|')}>`);
}
