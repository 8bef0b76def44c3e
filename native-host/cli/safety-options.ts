import { boolFlag, intFlag, type FlagSpec, type ParsedArgs } from './args';

/** `getlist load`'s per-request timeouts and target safety (the load's own bound is `--timeout`). */
export const SAFETY_FLAGS = {
  'request-timeout': {
    type: 'string',
    value: 'MS',
    default: '60000',
    description: 'fail one request with E_REQUEST_TIMEOUT when its response is not complete this many ms after it was sent; the load goes on; a shorter --timeout lowers the default to half of it',
  },
  'idle-timeout': {
    type: 'string',
    value: 'MS',
    default: '30000',
    description: 'fail one request with E_RESPONSE_STALLED when its headers, or the next byte of its body, take longer than this many ms; a shorter --timeout lowers the default to a quarter of it',
  },
  'allow-unsafe-ports': {
    type: 'boolean',
    description: 'also connect to the ports browsers refuse (the Fetch standard\'s "bad ports", e.g. 25); otherwise such requests fail with E_UNSAFE_PORT',
  },
  'allow-private-network': {
    type: 'boolean',
    description: "let a public page make getlist connect to private or loopback addresses (Private Network Access, as browsers apply it); otherwise such requests fail with E_PRIVATE_NETWORK before any connection is attempted",
  },
} satisfies Record<string, FlagSpec>;

export interface SafetyOptions {
  requestTotalTimeoutMs: number;
  requestTimeoutMs: number;
  allowUnsafePorts: boolean;
  allowPrivateNetwork: boolean;
}

/**
 * The per-request timeouts' defaults within a load budget of `loadTimeoutMs`: 30 s idle and 60 s
 * total, or a quarter and a half of the budget when it is shorter (at least 1 s). A stalled
 * response then ends inside the budget — with time left for a request that was moved off its
 * connection (src/scheduler/stalled-response.ts) — rather than outlasting it.
 */
export function requestTimeoutsWithin(loadTimeoutMs: number): { idleMs: number; totalMs: number } {
  return {
    idleMs: Math.min(30_000, Math.max(1000, Math.floor(loadTimeoutMs / 4))),
    totalMs: Math.min(60_000, Math.max(1000, Math.floor(loadTimeoutMs / 2))),
  };
}

/** `loadTimeoutMs`: the load's budget (`--timeout`), which bounds the per-request defaults. */
export function safetyOptions(args: ParsedArgs, loadTimeoutMs = Infinity): SafetyOptions {
  const within = requestTimeoutsWithin(loadTimeoutMs);
  return {
    requestTotalTimeoutMs: intFlag(args, 'request-timeout', within.totalMs, 10, 3_600_000),
    requestTimeoutMs: intFlag(args, 'idle-timeout', within.idleMs, 10, 3_600_000),
    allowUnsafePorts: boolFlag(args, 'allow-unsafe-ports'),
    allowPrivateNetwork: boolFlag(args, 'allow-private-network'),
  };
}
