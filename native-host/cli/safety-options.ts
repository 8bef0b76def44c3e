import { boolFlag, intFlag, type FlagSpec, type ParsedArgs } from './args';

/** `getlist load`'s per-request timeouts and target safety (the load's own bound is `--timeout`). */
export const SAFETY_FLAGS = {
  'request-timeout': {
    type: 'string',
    value: 'MS',
    default: '60000',
    description: 'fail one request with E_REQUEST_TIMEOUT when its response is not complete this many ms after it was sent; the load goes on',
  },
  'idle-timeout': {
    type: 'string',
    value: 'MS',
    default: '30000',
    description: 'fail one request with E_RESPONSE_STALLED when its headers, or the next byte of its body, take longer than this many ms',
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

export function safetyOptions(args: ParsedArgs): SafetyOptions {
  return {
    requestTotalTimeoutMs: intFlag(args, 'request-timeout', 60_000, 10, 3_600_000),
    requestTimeoutMs: intFlag(args, 'idle-timeout', 30_000, 10, 3_600_000),
    allowUnsafePorts: boolFlag(args, 'allow-unsafe-ports'),
    allowPrivateNetwork: boolFlag(args, 'allow-private-network'),
  };
}
