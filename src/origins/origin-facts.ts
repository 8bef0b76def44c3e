import type { DemotionReason, PipelineHealthState } from '../scheduler/pipeline-health';

/**
 * What the engine has learned about one origin, kept so that the next load (and the extension's
 * replays) start from it rather than from nothing. One record per origin; every field but `origin`
 * and `lastSeenAt` is optional: absent means "not learned yet", never "false" or 0.
 *
 * Pure: validated here, stored by the native host's store (`f!` keys), read by the engine.
 */
export interface OriginFacts {
  /** `new URL(x).origin` form: `https://host[:port]`. */
  origin: string;
  /** Epoch ms of the last connection to the origin that taught anything. */
  lastSeenAt: number;
  /** Pipelining health as the scheduler last left it (src/scheduler/pipeline-health.ts). */
  pipelining?: {
    state: PipelineHealthState;
    /** Epoch ms until which a `bad` origin stays demoted. */
    demotedUntil?: number;
    lastDemotion?: DemotionReason;
  };
  /**
   * Most requests one connection carried before the server closed it (a keep-alive limit such
   * as nginx's `keepalive_requests`); the engine opens the next connection before reaching it.
   */
  requestsPerConnection?: number;
  /** Whether the origin negotiated h2 by ALPN on its last TLS connection. */
  h2?: boolean;
  /** Smoothed round-trip time of the path, ms (src/scheduler/path-estimate.ts). */
  pathRttMs?: number;
  /** Bandwidth-delay product of the path, bytes. */
  pathBdpBytes?: number;
}

export const PIPELINE_STATES: readonly PipelineHealthState[] = ['unknown', 'probing', 'good', 'bad'];
export const DEMOTION_REASONS: readonly DemotionReason[] = ['closed-with-outstanding', 'http10', 'connection-close-mid-pipeline'];

/** Largest epoch ms accepted (the store's key width, year 33658). */
const MAX_EPOCH_MS = 999_999_999_999_999;
const MAX_ORIGIN_CHARS = 2048;

export type Checked<T> = { value: T } | { problem: string };

/**
 * A clean copy of `x` holding only the known fields, or the first problem found (`field: expected
 * …, got …`). JSON `null` reads as absent. Used on writes (a caller's bug) and on reads (a
 * corrupt or foreign stored value).
 */
export function checkOriginFacts(x: unknown): Checked<OriginFacts> {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return { problem: `expected an object, got ${describe(x)}` };
  const o = x as Record<string, unknown>;
  if (!isOrigin(o.origin)) return { problem: `origin: expected an http(s) origin like "https://example.com", got ${describe(o.origin)}` };
  if (!isEpoch(o.lastSeenAt)) return { problem: `lastSeenAt: expected epoch ms ≥ 0, got ${describe(o.lastSeenAt)}` };
  const out: OriginFacts = { origin: o.origin, lastSeenAt: o.lastSeenAt };
  if (present(o.pipelining)) {
    const p = checkPipelining(o.pipelining);
    if ('problem' in p) return { problem: `pipelining.${p.problem}` };
    out.pipelining = p.value;
  }
  const numbers: Array<[keyof OriginFacts & ('requestsPerConnection' | 'pathRttMs' | 'pathBdpBytes'), (v: unknown) => boolean, string]> = [
    ['requestsPerConnection', (v) => Number.isSafeInteger(v) && (v as number) >= 1, 'an integer ≥ 1'],
    ['pathRttMs', (v) => typeof v === 'number' && v > 0 && v < 600_000, 'a number of ms in (0, 600000)'],
    ['pathBdpBytes', (v) => Number.isSafeInteger(v) && (v as number) >= 0, 'an integer ≥ 0'],
  ];
  for (const [name, ok, expected] of numbers) {
    if (!present(o[name])) continue;
    if (!ok(o[name])) return { problem: `${name}: expected ${expected}, got ${describe(o[name])}` };
    out[name] = o[name] as number;
  }
  if (present(o.h2)) {
    if (typeof o.h2 !== 'boolean') return { problem: `h2: expected a boolean, got ${describe(o.h2)}` };
    out.h2 = o.h2;
  }
  return { value: out };
}

/**
 * `next` learned on top of `prev` (same origin): fields `next` has win, fields it lacks are kept,
 * and `lastSeenAt` never goes backwards, so merging is order-insensitive for `lastSeenAt`.
 */
export function mergeOriginFacts(prev: OriginFacts | undefined, next: OriginFacts): OriginFacts {
  if (!prev || prev.origin !== next.origin) return next;
  return { ...prev, ...next, lastSeenAt: Math.max(prev.lastSeenAt, next.lastSeenAt) };
}

function checkPipelining(x: unknown): Checked<NonNullable<OriginFacts['pipelining']>> {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return { problem: `expected an object, got ${describe(x)}` };
  const o = x as Record<string, unknown>;
  if (!(PIPELINE_STATES as readonly unknown[]).includes(o.state)) return { problem: `state: expected one of ${PIPELINE_STATES.join(', ')}, got ${describe(o.state)}` };
  const out: NonNullable<OriginFacts['pipelining']> = { state: o.state as PipelineHealthState };
  if (present(o.demotedUntil)) {
    if (!isEpoch(o.demotedUntil)) return { problem: `demotedUntil: expected epoch ms ≥ 0, got ${describe(o.demotedUntil)}` };
    out.demotedUntil = o.demotedUntil;
  }
  if (present(o.lastDemotion)) {
    if (!(DEMOTION_REASONS as readonly unknown[]).includes(o.lastDemotion)) return { problem: `lastDemotion: expected one of ${DEMOTION_REASONS.join(', ')}, got ${describe(o.lastDemotion)}` };
    out.lastDemotion = o.lastDemotion as DemotionReason;
  }
  return { value: out };
}

const present = (v: unknown) => v !== undefined && v !== null;
const isEpoch = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= MAX_EPOCH_MS;

/** `scheme://host[:port]` exactly as `new URL(x).origin` prints it, http or https only. */
function isOrigin(v: unknown): v is string {
  if (typeof v !== 'string' || v.length === 0 || v.length > MAX_ORIGIN_CHARS) return false;
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === v;
  } catch {
    return false;
  }
}

function describe(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === 'number' || typeof v === 'boolean' || v === undefined || v === null) return String(v);
  return Array.isArray(v) ? 'an array' : typeof v;
}
