import { LinkError } from './link-error';

/** What `startLink` emulates between the client namespace and the server namespace. */
export interface LinkOptions {
  /** Round-trip propagation delay in ms, split evenly between the two directions. */
  rttMs: number;
  /** Server → client bottleneck rate in bits/s. @default unlimited */
  downBitsPerSec?: number;
  /** Client → server bottleneck rate in bits/s. @default unlimited */
  upBitsPerSec?: number;
  /** Probability that a packet is dropped, applied independently in each direction. @default 0 */
  loss?: number;
  /**
   * Drop-tail queue limit per direction, in bytes of IP packets not yet serialised.
   * @default max(64 KiB, one bandwidth-delay product of that direction)
   */
  queueBytes?: number;
  /** How many server addresses (198.19.0.1 … 198.19.0.N) to give the server namespace. @default 1 */
  hosts?: number;
  /** Seed of the loss generator, so a run's drop pattern repeats. @default 1 */
  seed?: number;
  /** The forwarder exits after this long even if nobody closes the link. @default 7200 */
  maxLifetimeSeconds?: number;
}

/** One direction of the link as the forwarder takes it: 0 bits/s means unlimited. */
export interface DirectionConfig {
  bitsPerSec: number;
  delayNs: number;
  queueBytes: number;
  loss: number;
}

export interface LinkConfig {
  rttMs: number;
  up: DirectionConfig;
  down: DirectionConfig;
  hosts: number;
  seed: number;
  maxLifetimeSeconds: number;
}

/** Largest server address count: 198.19.0.1 … 198.19.0.254. */
export const MAX_HOSTS = 254;
const MIN_QUEUE_BYTES = 1500;
const DEFAULT_QUEUE_BYTES = 64 * 1024;

function fail(name: string, expected: string, got: unknown): never {
  throw new LinkError('E_LINK_BAD_OPTION', `${name} must be ${expected}; got ${JSON.stringify(got)}`);
}

function rate(name: string, value: number | undefined): number {
  if (value === undefined) return 0;
  if (!Number.isFinite(value) || value < 1000) fail(name, 'a number of bits/s ≥ 1000 (or left out for unlimited)', value);
  return Math.round(value);
}

function direction(opts: LinkOptions, bitsPerSec: number): DirectionConfig {
  const delayNs = Math.round((opts.rttMs / 2) * 1e6);
  const bdp = bitsPerSec > 0 ? Math.ceil((bitsPerSec * opts.rttMs) / 8000) : 0;
  return { bitsPerSec, delayNs, queueBytes: opts.queueBytes ?? Math.max(DEFAULT_QUEUE_BYTES, bdp), loss: opts.loss ?? 0 };
}

/** Checks every option and fills in the defaults; throws `E_LINK_BAD_OPTION` naming the first bad one. */
export function resolveLinkOptions(opts: LinkOptions): LinkConfig {
  if (!Number.isFinite(opts.rttMs) || opts.rttMs < 0 || opts.rttMs > 10_000) fail('rttMs', 'a number of ms in [0, 10000]', opts.rttMs);
  const loss = opts.loss ?? 0;
  if (!Number.isFinite(loss) || loss < 0 || loss >= 1) fail('loss', 'a probability in [0, 1)', opts.loss);
  if (opts.queueBytes !== undefined && (!Number.isInteger(opts.queueBytes) || opts.queueBytes < MIN_QUEUE_BYTES)) {
    fail('queueBytes', `an integer ≥ ${MIN_QUEUE_BYTES} (one full-size packet)`, opts.queueBytes);
  }
  const hosts = opts.hosts ?? 1;
  if (!Number.isInteger(hosts) || hosts < 1 || hosts > MAX_HOSTS) fail('hosts', `an integer in [1, ${MAX_HOSTS}]`, opts.hosts);
  const seed = opts.seed ?? 1;
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) fail('seed', 'an integer in [0, 2^32)', opts.seed);
  const maxLifetimeSeconds = opts.maxLifetimeSeconds ?? 7200;
  if (!Number.isInteger(maxLifetimeSeconds) || maxLifetimeSeconds < 1) fail('maxLifetimeSeconds', 'a positive integer', opts.maxLifetimeSeconds);
  const up = direction(opts, rate('upBitsPerSec', opts.upBitsPerSec));
  const down = direction(opts, rate('downBitsPerSec', opts.downBitsPerSec));
  return { rttMs: opts.rttMs, up, down, hosts, seed, maxLifetimeSeconds };
}
