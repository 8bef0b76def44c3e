import { PRIORITY_CLASSES } from '../core/priority';
import { isAbsolutePath, MAX_CA_PATH_LENGTH } from './ca-file-path';
import { EXPORT_FORMATS } from '../stats/export-formats';
import { HANDSHAKE_SOURCES } from '../stats/handshake';
import { STRATEGY_NAMES, type StrategyName } from '../scheduler/strategies';
import { Checker, describe, isPlainObject, type Fields } from './check';
import { checkUrl, optionalOrigin } from './check-url';
import { parseHandshakes } from './validate-handshakes';
import { ProtocolError, type RequestId } from './errors';
import {
  REQUEST_TYPES,
  SCHEDULE_MODES,
  type DiscoverRequest,
  type ForgetRequest,
  type HostRequest,
  type HostRequestType,
  type ScheduleItem,
  type ScheduleMethod,
  type ScheduleRequest,
} from './requests';
import { HostMappingError, MAX_HOST_MAPPINGS, MAX_HOST_MAPPING_LENGTH, parseResolve } from '../targets/host-mapping';
import { MAX_ID_LENGTH, MAX_LABEL_LENGTH, MAX_REQUESTS_PER_SCHEDULE, SUPPORTED_PROTOCOL_VERSIONS } from './version';

export { checkUrl };

/** Replays run these strategies unless the request names others. */
export const DEFAULT_REPLAY_STRATEGIES: readonly StrategyName[] = ['browser', 'getlist'];

const METHODS: readonly ScheduleMethod[] = ['GET', 'HEAD'];

/**
 * Checks a decoded message from the browser and returns it as a typed request holding only the
 * fields this version knows (unknown fields are dropped, for forward compatibility).
 * @throws ProtocolError with a stable code; its `id` is the request's id when that was readable.
 */
export function parseRequest(value: unknown): HostRequest {
  if (!isPlainObject(value)) {
    throw new ProtocolError('E_NOT_OBJECT', `a message must be a JSON object with "type" and "id", got ${describe(value)}`);
  }
  const echo = isRequestId(value.id) ? value.id : null;
  const c: Checker = new Checker(echo);
  const type = c.required(value, 'type', '');
  if (typeof type !== 'string') c.invalid('type', 'a string', type);
  if (!isRequestType(type)) {
    c.fail('E_UNKNOWN_TYPE', `unknown message type ${describe(type)}; this host (protocol ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}) knows ${REQUEST_TYPES.join(', ')}`);
  }
  const rawId = c.required(value, 'id', '');
  const id: RequestId = echo ?? c.invalid('id', `a string of at most ${MAX_ID_LENGTH} characters or a finite number`, rawId);
  switch (type) {
    case 'hello':
      return { type: 'hello', id, protocolVersion: protocolVersion(c, value) };
    case 'ping':
      return { type: 'ping', id };
    case 'schedule':
      return parseSchedule(c, id, value);
    case 'discover':
      return strip<DiscoverRequest>({ type: 'discover', id, url: checkUrl(c, c.required(value, 'url', ''), 'url'), allowPrivateNetwork: c.optionalBoolean(value, 'allowPrivateNetwork', '') });
    case 'handshakes':
      return parseHandshakes(c, id, value);
    case 'stats':
      return strip({ type: 'stats', id, source: c.optionalOneOf(value, 'source', '', HANDSHAKE_SOURCES), origin: optionalOrigin(c, value), since: c.optionalTime(value, 'since', ''), until: until(c, value) });
    case 'export':
      return strip({ type: 'export', id, format: c.oneOf(value, 'format', '', EXPORT_FORMATS), source: c.optionalOneOf(value, 'source', '', HANDSHAKE_SOURCES), origin: optionalOrigin(c, value), since: c.optionalTime(value, 'since', '') });
    case 'forget':
      return parseForget(c, id, value);
  }
}

function isRequestType(v: string): v is HostRequestType {
  return (REQUEST_TYPES as readonly string[]).includes(v);
}

export function isRequestId(v: unknown): v is RequestId {
  return (typeof v === 'string' && v.length <= MAX_ID_LENGTH) || (typeof v === 'number' && Number.isFinite(v));
}

function protocolVersion(c: Checker, value: Fields): number {
  const v = c.required(value, 'protocolVersion', '');
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1) c.invalid('protocolVersion', 'an integer ≥ 1', v);
  if (!SUPPORTED_PROTOCOL_VERSIONS.includes(v)) {
    const newest = Math.max(...SUPPORTED_PROTOCOL_VERSIONS);
    const advice = v > newest ? 'update the getlist host' : 'update the extension';
    c.fail('E_UNSUPPORTED_VERSION', `protocol version ${v} is not supported; this host speaks ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')} (${advice})`);
  }
  return v;
}

function parseSchedule(c: Checker, id: RequestId, value: Fields): ScheduleRequest {
  const pageId = c.string(value, 'pageId', '', MAX_LABEL_LENGTH);
  const documentUrl = checkUrl(c, c.required(value, 'documentUrl', ''), 'documentUrl');
  const mode = c.optionalOneOf(value, 'mode', '', SCHEDULE_MODES) ?? 'measure';
  const strategies = parseStrategies(c, value, mode);
  const list = c.array(value, 'requests', '');
  // Refuse an oversized list before looking at any item: a hostile page costs no per-item work.
  if (list.length > MAX_REQUESTS_PER_SCHEDULE) {
    c.fail('E_TOO_MANY_REQUESTS', `requests: a schedule may list at most ${MAX_REQUESTS_PER_SCHEDULE} requests, got ${list.length}`);
  }
  const requests = list.map((item, i) => parseItem(c, item, `requests[${i}]`));
  const allowPrivateNetwork = c.optionalBoolean(value, 'allowPrivateNetwork', '');
  return strip({ type: 'schedule', id, pageId, documentUrl, requests, mode, strategies, caFile: parseCaFile(c, value, mode), allowPrivateNetwork, hostMappings: parseHostMappings(c, value, mode) });
}

function parseStrategies(c: Checker, value: Fields, mode: string): StrategyName[] | undefined {
  const raw = value.strategies;
  if (raw === undefined) return mode === 'replay' ? [...DEFAULT_REPLAY_STRATEGIES] : undefined;
  if (mode !== 'replay') c.invalid('strategies', 'no strategies unless mode is "replay"', raw);
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > STRATEGY_NAMES.length) {
    c.invalid('strategies', `an array of 1 to ${STRATEGY_NAMES.length} strategy names`, raw);
  }
  const names = raw.map((s, i) => c.asOneOf(s, `strategies[${i}]`, STRATEGY_NAMES));
  if (new Set(names).size !== names.length) c.invalid('strategies', 'each strategy at most once', raw);
  return names;
}

function parseCaFile(c: Checker, value: Fields, mode: string): string | undefined {
  const path = c.optionalString(value, 'caFile', '', MAX_CA_PATH_LENGTH);
  if (path === undefined) return undefined;
  if (mode !== 'replay') c.invalid('caFile', 'no caFile unless mode is "replay"', path);
  if (!isAbsolutePath(path)) c.invalid('caFile', 'an absolute path to a PEM file', path);
  return path;
}

function parseHostMappings(c: Checker, value: Fields, mode: string): string[] | undefined {
  const raw = value.hostMappings;
  if (raw === undefined) return undefined;
  if (mode !== 'replay') c.invalid('hostMappings', 'no hostMappings unless mode is "replay"', raw);
  if (!Array.isArray(raw) || raw.length > MAX_HOST_MAPPINGS) c.invalid('hostMappings', `an array of at most ${MAX_HOST_MAPPINGS} HOST:PORT:ADDRESS strings`, raw);
  return raw.map((line, i) => {
    const path = `hostMappings[${i}]`;
    if (typeof line !== 'string' || line.length > MAX_HOST_MAPPING_LENGTH) c.invalid(path, `a HOST:PORT:ADDRESS string of at most ${MAX_HOST_MAPPING_LENGTH} characters`, line);
    try {
      parseResolve(line);
    } catch (err) {
      if (err instanceof HostMappingError) c.invalid(path, 'HOST:PORT:ADDRESS with a port 1–65535 and an IP address, e.g. example.com:443:127.0.0.1', line);
      throw err;
    }
    return line;
  });
}

function parseItem(c: Checker, raw: unknown, path: string): ScheduleItem {
  const o = c.object(raw, path);
  const url = checkUrl(c, c.required(o, 'url', path), `${path}.url`);
  const method = o.method;
  if (method !== undefined && !(METHODS as readonly unknown[]).includes(method)) {
    c.fail('E_INVALID_METHOD', `${path}.method: getlist only fetches GET and HEAD (it never sends a request that changes anything), got ${describe(method)}`);
  }
  return strip({
    url,
    method: method as ScheduleMethod | undefined,
    priority: c.oneOf(o, 'priority', path, PRIORITY_CLASSES),
    discoveredAt: c.optionalTime(o, 'discoveredAt', path),
    inViewport: c.optionalBoolean(o, 'inViewport', path),
    resourceType: c.optionalString(o, 'resourceType', path, MAX_LABEL_LENGTH),
  });
}

function parseForget(c: Checker, id: RequestId, value: Fields): ForgetRequest {
  const origin = optionalOrigin(c, value);
  const all = value.all;
  if (all !== undefined && all !== true) c.invalid('all', 'true (to forget everything) or no all', all);
  if (origin !== undefined && all === true) c.invalid('all', 'either origin or all: true, not both', all);
  if (origin !== undefined) return { type: 'forget', id, origin };
  if (all !== true) c.fail('E_MISSING_FIELD', 'origin: a forget names what it forgets: an origin, or all: true for everything');
  return { type: 'forget', id, all: true };
}

function until(c: Checker, value: Fields): number | undefined {
  const u = c.optionalTime(value, 'until', '');
  const since = value.since;
  if (u !== undefined && typeof since === 'number' && since > u) c.invalid('until', `a time ≥ since (${since})`, u);
  return u;
}

/** Drops keys whose value is undefined, so validated requests hold only what was given. */
function strip<T extends object>(o: T): T {
  for (const k of Object.keys(o) as Array<keyof T>) if (o[k] === undefined) delete o[k];
  return o;
}
