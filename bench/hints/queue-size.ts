import type { LinkParams } from '../run/results-schema';

/**
 * The drop-tail queue of each direction of the link, in bytes: `queueBdp` × that direction's
 * bandwidth-delay product (`--queue-bdp`), else the link's default, max(64 KiB, one BDP)
 * (bench/link/link-options.ts): 250 000 B = 1 BDP at 100 ms / 20 Mbit/s, 65 536 B = 2.6 BDP at
 * 40 ms / 5 Mbit/s. One BDP is the classic buffer-sizing rule for a bottleneck carrying few flows.
 */
export function queueBytesOf(params: LinkParams, queueBdp: number | undefined): number | undefined {
  if (queueBdp === undefined) return undefined;
  const bdp = (params.downBitsPerSec * params.rttMs) / 8000;
  return Math.max(1500, Math.round(queueBdp * bdp));
}
