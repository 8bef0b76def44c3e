import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { isBadPort } from '../../src/targets/bad-ports';
import { NET_CONNECT_LOOKUP, sharedHostCache } from './host-cache';
import { TransportError } from './transport-errors';

/** An error when a connection to `address` (textual IP) must not be made or used. */
export type AddressCheck = (address: string) => Error | undefined;

/**
 * What a connection must pass. Every socket the host or the CLI opens goes through
 * timing-connector.ts (eslint.config.mjs forbids opening one anywhere else), which applies it:
 *
 * - before anything is sent, on the port the SYN would go to: the Fetch standard's bad ports
 *   (https://fetch.spec.whatwg.org/#port-blocking), as browsers refuse them for every http(s) URL;
 * - before the SYN, on every address DNS gives (or the literal): `addressCheck` (Private Network
 *   Access, private-network.ts). A refused address never sees a connection attempt, so "refused"
 *   tells a page nothing about which of its ports are open;
 * - once connected, on the address actually reached: `addressCheck` again, so a name that resolves
 *   differently between two lookups (DNS rebinding) gains nothing.
 */
export interface ConnectionGate {
  /** Also connect to the bad ports (the CLI's `--allow-unsafe-ports`). @default false */
  allowUnsafePorts?: boolean;
  /** @default allow every address */
  addressCheck?: AddressCheck;
}

/** The refusal of a connection to `host`:`port` before it is attempted, if any. */
export function refuseTarget(gate: ConnectionGate, origin: string, host: string, port: number): Error | undefined {
  if (!gate.allowUnsafePorts && isBadPort(port)) {
    return new TransportError('E_UNSAFE_PORT', `port ${port} is one browsers refuse to connect to (Fetch "bad ports"); not connecting to ${origin}`);
  }
  const literal = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return isIP(literal) !== 0 ? gate.addressCheck?.(literal) : undefined;
}

/** The check of the connect call under way; `null` outside one. */
let current: { check: AddressCheck | undefined } | null = null;

/**
 * Runs `connect` (which must start a `net`/`tls` connection that resolves its name with
 * `gatedLookup`) so that the lookup applies `check`. Node calls the lookup synchronously within
 * the connect call, so a variable set around the call carries the check (an AsyncLocalStorage
 * would too, but on Node 20 it puts a hook on every promise of the process).
 */
export function connectWithCheck<T>(check: AddressCheck | undefined, connect: () => T): T {
  const outer = current;
  current = { check };
  try {
    return connect();
  } finally {
    current = outer;
  }
}

/**
 * `dns.lookup` with the current address check applied to its answer: refused addresses are
 * dropped before Node tries any (with `autoSelectFamily`, Node asks for all of them); when none is
 * left, the connection fails with the first refusal and no SYN is sent. Outside a gated connect
 * call it refuses everything.
 */
export const gatedLookup: LookupFunction = (hostname, options, callback) => {
  if (current === null) {
    // Called outside `connectWithCheck`: fail closed rather than connect unchecked.
    const err = new TransportError('E_PRIVATE_NETWORK', `${hostname} was looked up outside the connection gate; not connecting`) as unknown as NodeJS.ErrnoException;
    process.nextTick(() => (callback as (e: NodeJS.ErrnoException) => void)(err));
    return;
  }
  const check = current.check;
  cachedLookup(hostname, options as LookupOptions | number | undefined, (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => {
    if (err || !check) {
      (callback as (e: NodeJS.ErrnoException | null, a: string | LookupAddress[], f?: number) => void)(err, address, family);
      return;
    }
    const all = Array.isArray(address) ? address : [{ address, family: family ?? 4 }];
    const allowed = all.filter((a) => check(a.address) === undefined);
    if (allowed.length === 0) {
      const refusal = (check(all[0]?.address ?? '') ?? new Error(`no address for ${hostname}`)) as NodeJS.ErrnoException;
      (callback as (e: NodeJS.ErrnoException | null, a: string, f?: number) => void)(refusal, '', undefined);
      return;
    }
    if (Array.isArray(address)) (callback as (e: null, a: LookupAddress[]) => void)(null, allowed);
    else (callback as (e: null, a: string, f: number) => void)(null, (allowed[0] as LookupAddress).address, (allowed[0] as LookupAddress).family);
  });
};

/**
 * `dns.lookup`'s contract, answered from the process's host cache (host-cache.ts). Each caller
 * gets its own copy of the answer: what it does with it cannot change the next caller's.
 */
function cachedLookup(hostname: string, options: LookupOptions | number | undefined, callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void): void {
  const o = typeof options === 'object' ? options : { family: options };
  const family = o.family === 'IPv4' ? 4 : o.family === 'IPv6' ? 6 : o.family;
  sharedHostCache().lookupAll(hostname, { ...(family !== undefined ? { family } : {}), ...(o.hints !== undefined ? { hints: o.hints } : {}) }).then(
    (all) => {
      const first = all[0];
      if (o.all === true) callback(null, all.map((a) => ({ ...a })));
      else if (first !== undefined) callback(null, first.address, first.family);
      else callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname }), '', undefined);
    },
    (err: NodeJS.ErrnoException) => callback(err, '', undefined),
  );
}

/**
 * Every address of `hostname` that `check` passes, in DNS order, through `gatedLookup`: asked as
 * `net.connect` asks (host-cache.ts `NET_CONNECT_LOOKUP`), so a connect timer's connection and an
 * in-loop one to the same name share one lookup.
 */
export function gatedLookupAll(check: AddressCheck | undefined, hostname: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    connectWithCheck(check, () =>
      gatedLookup(hostname, { all: true, ...NET_CONNECT_LOOKUP }, (err: NodeJS.ErrnoException | null, addresses: string | LookupAddress[]) => {
        if (err) reject(err);
        else resolve(Array.isArray(addresses) ? addresses : [{ address: addresses, family: isIP(addresses) }]);
      }),
    );
  });
}
