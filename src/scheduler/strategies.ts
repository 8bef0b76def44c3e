import { SchedulerError } from './errors';
import { CONNECTIONS, DISCOVERY, HTTP2, MEMORY, PAUSING, PIPELINING, SPECULATIVE_LIST, type ConnectionPolicy, type DiscoveryPolicy, type Http2Policy, type MemoryPolicy, type Ordering, type PausingPolicy, type PipeliningPolicy } from './strategy-policies';
import { applyOverrides, type DeepPartial } from './strategy-overrides';

export type * from './strategy-policies';

export const STRATEGY_NAMES = ['http10', 'serial', 'browser', 'pipelined', 'getlist', 'h2'] as const;
export type StrategyName = (typeof STRATEGY_NAMES)[number];

/**
 * How a request list is loaded: one named policy per concern (strategy-policies.ts). The named
 * presets below are the experiments of the seed papers; every setting can be overridden to
 * explore around them (`strategy(name, overrides)`).
 */
export interface Strategy {
  readonly name: StrategyName;
  connections: ConnectionPolicy;
  /** @default false: one request at a time per HTTP/1.1 connection */
  pipelining: PipeliningPolicy | false;
  /** @default false: HTTP/1.1 everywhere (no ALPN offer of h2) */
  http2: Http2Policy | false;
  /** @default 'fifo' */
  ordering: Ordering;
  /** @default false: every response keeps reading */
  pausing: PausingPolicy | false;
  /** @default false: every load is a first visit */
  memory: MemoryPolicy | false;
  discovery: DiscoveryPolicy;
}

/**
 * What `strategy(name, overrides)` takes: any part of any policy. An object turns an off policy on
 * (from its defaults), `false` turns it off; `undefined` changes nothing.
 */
export type StrategyOverrides = DeepPartial<Omit<Strategy, 'name'>>;

const BROWSER: Omit<Strategy, 'name'> = {
  connections: CONNECTIONS,
  pipelining: false,
  http2: false,
  ordering: 'fifo',
  pausing: false,
  memory: false,
  discovery: DISCOVERY,
};
const ONE_CONNECTION: ConnectionPolicy = { ...CONNECTIONS, maxPerOrigin: 1 };

const PRESETS: Record<StrategyName, Strategy> = {
  /** Padmanabhan & Mogul's baseline: a new connection per request, one at a time. */
  http10: { ...BROWSER, name: 'http10', connections: { ...ONE_CONNECTION, keepAlive: false } },
  /** One persistent connection, stop-and-wait. */
  serial: { ...BROWSER, name: 'serial', connections: ONE_CONNECTION },
  /** Today's HTTP/1.1 browsers: six persistent connections per origin, no pipelining, FIFO. */
  browser: { ...BROWSER, name: 'browser' },
  /** P&M's GETLIST: one persistent connection per origin, the list pipelined on it, no priorities. */
  pipelined: { ...BROWSER, name: 'pipelined', connections: ONE_CONNECTION, pipelining: { ...PIPELINING, maxDepth: 64 } },
  /** Everything: pipelining over parallel persistent connections, priorities, pausing, HTTP/2 where offered. */
  getlist: {
    name: 'getlist',
    connections: { ...CONNECTIONS, fitToPath: true, preconnect: true },
    pipelining: { ...PIPELINING, orderProbe: true },
    http2: { ...HTTP2, connectionsOnStall: 2, connectionsForDemand: 6, connectionsForPreconnect: 3, connectionsForDocument: 3 },
    ordering: 'priorities',
    pausing: { ...PAUSING, onlyWhenLinkBusy: true },
    memory: { ...MEMORY, speculativeList: SPECULATIVE_LIST },
    discovery: { ...DISCOVERY, earlyImports: true },
  },
  /** One multiplexed HTTP/2 connection per origin that offers it; browser-style HTTP/1.1 elsewhere. */
  h2: { ...BROWSER, name: 'h2', http2: HTTP2, ordering: 'priorities' },
};

/** What an override that turns an off policy on starts from, by field path. */
const TURNED_ON: Readonly<Record<string, object>> = { pipelining: PIPELINING, http2: HTTP2, pausing: PAUSING, memory: MEMORY, 'memory.speculativeList': SPECULATIVE_LIST };

export function isStrategyName(value: unknown): value is StrategyName {
  return typeof value === 'string' && (STRATEGY_NAMES as readonly string[]).includes(value);
}

/**
 * A preset by name, with overrides applied and validated: a fresh copy, so changing it changes no
 * preset. Throws `SchedulerError` `E_UNKNOWN_STRATEGY`, or `E_INVALID_OPTION` naming the field
 * path (`pipelining.maxDepth`).
 */
export function strategy(name: string, overrides: StrategyOverrides = {}): Strategy {
  if (!isStrategyName(name)) {
    throw new SchedulerError('E_UNKNOWN_STRATEGY', `unknown strategy ${JSON.stringify(name)}; expected one of ${STRATEGY_NAMES.join(', ')}`);
  }
  const s = applyOverrides(PRESETS[name], overrides, TURNED_ON, `strategy ${name}`) as Strategy;
  validateStrategy(s);
  return s;
}

type Check = [path: string, value: unknown, min: number];

/** Throws `E_INVALID_OPTION` naming the first setting out of range: `strategy getlist: pipelining.maxDepth must be …`. */
export function validateStrategy(s: Strategy): void {
  const { connections: c, pipelining: p, http2: h, pausing: z, memory: m } = s;
  const checks: Check[] = [['connections.maxPerOrigin', c.maxPerOrigin, 1]];
  if (p) checks.push(['pipelining.maxDepth', p.maxDepth, 1], ['pipelining.largeResponseBytes', p.largeResponseBytes, 0], ['pipelining.demoteMs', p.demoteMs, 0], ['pipelining.probeSuccesses', p.probeSuccesses, 0]);
  if (h) checks.push(['http2.maxStreams', h.maxStreams, 1], ['http2.connectionsOnStall', h.connectionsOnStall, 1], ['http2.connectionsForDemand', h.connectionsForDemand, 1], ['http2.connectionsForPreconnect', h.connectionsForPreconnect, 1], ['http2.connectionsForDocument', h.connectionsForDocument, 1], ['http2.demandMinHandshakeMs', h.demandMinHandshakeMs, 0]);
  if (z) checks.push(['pausing.maxFlowing', z.maxFlowing, 0], ['pausing.minBytes', z.minBytes, 0]);
  if (m && m.speculativeList) checks.push(['memory.speculativeList.maxBytes', m.speculativeList.maxBytes, 0]);
  for (const [path, v, min] of checks) {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min) {
      throw new SchedulerError('E_INVALID_OPTION', `strategy ${s.name}: ${path} must be an integer ≥ ${min}, got ${String(v)}`);
    }
  }
  if (s.ordering !== 'priorities' && s.ordering !== 'fifo') {
    throw new SchedulerError('E_INVALID_OPTION', `strategy ${s.name}: ordering must be "priorities" or "fifo", got ${JSON.stringify(s.ordering)}`);
  }
}

// ── what the scheduler reads of a strategy whose policy may be off ───────────────────────────────

/** Requests one HTTP/1.1 connection may carry at once at full depth: 1 without pipelining. */
export function pipelineDepth(s: Strategy): number {
  return s.pipelining ? s.pipelining.maxDepth : 1;
}

/**
 * The size from which a response is remembered as large (`SchedulerOptions.sizeHints`) and never
 * pipelined behind: the pipelining policy's, else its default, so size hints learned by a strategy
 * that does not pipeline serve one that does.
 */
export function largeResponseBytes(s: Strategy): number {
  return s.pipelining ? s.pipelining.largeResponseBytes : PIPELINING.largeResponseBytes;
}

/**
 * A response declared smaller than this is mostly in flight once its head arrives (about one
 * initial window): the pausing policy's `minBytes`, else its default. The order probe goes behind
 * only such responses (order-probe.ts).
 */
export function shortResponseBytes(s: Strategy): number {
  return s.pausing ? s.pausing.minBytes : PAUSING.minBytes;
}

/** The HTTP/2 policy when it opens more than one connection for demand before ALPN answers (h2-windows.ts). */
export function windowsForDemand(s: Strategy): Http2Policy | undefined {
  return s.http2 && s.http2.connectionsForDemand > 1 ? s.http2 : undefined;
}
