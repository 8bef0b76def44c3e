import { CodedError } from '../core/coded-error';

/**
 * Host mapping (curl's `--resolve` and `--connect-to`) for `getlist load` and for the extension's
 * replays (its options' `HOST:PORT:ADDRESS` lines, sent as a schedule's `hostMappings`): connect
 * somewhere else than DNS says while keeping the URL's host for `Host`, SNI and certificate
 * checks — to load a staging server or a local copy of a site under its real names. Pure: the
 * transport (native-host/transport/timing-connector.ts) applies it.
 */
export interface HostMapping {
  /** Lower-case host name to match; `*` (or `''` in `--connect-to`) matches any. */
  host: string;
  /** Port to match; `undefined` matches any. */
  port: number | undefined;
  /** Where to connect: an address (`--resolve`) or a host (`--connect-to`); `''` keeps the URL's host. */
  target: string;
  /** Port to connect to; `undefined` keeps the URL's port. */
  targetPort: number | undefined;
}

/** A malformed `--resolve` / `--connect-to` value; the message says what was expected. */
export class HostMappingError extends CodedError<'E_INVALID_HOST_MAPPING'> {
  override readonly name = 'HostMappingError';

  constructor(message: string) {
    super('E_INVALID_HOST_MAPPING', message);
  }
}

/** `HOST:PORT:ADDRESS` (curl `--resolve`; HOST may be `*`; an IPv6 address may be in brackets). */
export function parseResolve(value: string): HostMapping {
  const m = /^([^:]+):(\d+):(\[[0-9a-fA-F:.]+\]|[^:[\]]+|[0-9a-fA-F:.]+)$/.exec(value);
  if (!m) throw new HostMappingError(`--resolve ${JSON.stringify(value)}: expected HOST:PORT:ADDRESS, e.g. example.com:443:127.0.0.1`);
  const address = (m[3] as string).replace(/^\[|\]$/g, '');
  if (!isIpAddress(address)) throw new HostMappingError(`--resolve ${JSON.stringify(value)}: ${address} is not an IP address`);
  return { host: (m[1] as string).toLowerCase(), port: port(m[2] as string, value), target: address, targetPort: undefined };
}

/** `HOST1:PORT1:HOST2:PORT2` (curl `--connect-to`); empty HOST1/PORT1 match any, empty HOST2/PORT2 keep the URL's. */
export function parseConnectTo(value: string): HostMapping {
  const m = /^(\[[^\]]*\]|[^:]*):(\d*):(\[[^\]]*\]|[^:]*):(\d*)$/.exec(value);
  if (!m) throw new HostMappingError(`--connect-to ${JSON.stringify(value)}: expected HOST1:PORT1:HOST2:PORT2 (parts may be empty), e.g. ::127.0.0.1:8443`);
  const host = (m[1] as string).replace(/^\[|\]$/g, '').toLowerCase();
  return {
    host: host === '' ? '*' : host,
    port: m[2] === '' ? undefined : port(m[2] as string, value),
    target: (m[3] as string).replace(/^\[|\]$/g, ''),
    targetPort: m[4] === '' ? undefined : port(m[4] as string, value),
  };
}

/** Longest `HOST:PORT:ADDRESS` line (a 253-character name, a port, a bracketed IPv6 address). */
export const MAX_HOST_MAPPING_LENGTH = 320;
/** Mapping lines a schedule or the extension's settings may hold. */
export const MAX_HOST_MAPPINGS = 64;

/** Where to connect for `hostname:portNumber`; the first matching mapping wins. */
export function mapTarget(mappings: readonly HostMapping[], hostname: string, portNumber: number): { host: string; port: number; mapped: boolean } {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  for (const m of mappings) {
    if ((m.host === '*' || m.host === h) && (m.port === undefined || m.port === portNumber)) {
      return { host: m.target === '' ? h : m.target, port: m.targetPort ?? portNumber, mapped: true };
    }
  }
  return { host: h, port: portNumber, mapped: false };
}

function port(text: string, value: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 65535) throw new HostMappingError(`${JSON.stringify(value)}: port ${text} is not 1–65535`);
  return n;
}

function isIpAddress(s: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(s) || (s.includes(':') && /^[0-9a-fA-F:.]+$/.test(s));
}
