import { PRIORITY_CLASSES } from '../core/priority';
import { EXPORT_FORMATS } from '../stats/export-formats';
import { STRATEGY_NAMES } from '../scheduler/strategies';
import { Checker, describe, isPlainObject, join, type Fields } from './check';
import { PROTOCOL_ERROR_CODES, ProtocolError } from './errors';
import { DISCOVERED_AS, DISCOVERED_VIA, type HostMessage, type HostMessageType } from './replies';
import { MAX_DISCOVERED, MAX_URL_LENGTH } from './version';
import { isRequestId } from './validate-request';
import { checkStoreHealth } from './store-health';

const MESSAGE_TYPES: readonly HostMessageType[] = ['hello', 'pong', 'measured', 'discovered', 'replay-result', 'replay-summary', 'stats', 'export', 'forgotten', 'recorded', 'error', 'chunk'];

/** No single string field of a host message is longer than a whole native message. */
const MAX_FIELD = 1024 * 1024;

/**
 * The extension's check of a host message. It verifies the envelope and every field the extension
 * reads, and returns the message typed; fields it does not know are kept (a newer host may add
 * some).
 * @throws ProtocolError (`E_NOT_OBJECT`, `E_UNKNOWN_TYPE`, `E_MISSING_FIELD`, `E_INVALID_FIELD`).
 */
export function parseHostMessage(value: unknown): HostMessage {
  if (!isPlainObject(value)) throw new ProtocolError('E_NOT_OBJECT', `a host message must be a JSON object, got ${describe(value)}`);
  const c: Checker = new Checker(isRequestId(value.id) ? value.id : null);
  const type = c.oneOf(value, 'type', '', MESSAGE_TYPES);
  if (type === 'error') {
    if (value.id !== null && !isRequestId(c.required(value, 'id', ''))) c.invalid('id', 'a request id or null', value.id);
    c.oneOf(value, 'code', '', PROTOCOL_ERROR_CODES);
    c.string(value, 'message', '', MAX_FIELD);
    return value as unknown as HostMessage;
  }
  if (!isRequestId(c.required(value, 'id', ''))) c.invalid('id', 'a request id', value.id);
  const check: Check = CHECKS[type];
  check(c, value);
  return value as unknown as HostMessage;
}

type Check = (c: Checker, v: Fields) => void;

const CHECKS: Record<Exclude<HostMessageType, 'error'>, Check> = {
  hello: (c, v) => {
    c.string(v, 'hostVersion', '', 64);
    c.count(v, 'protocolVersion', '');
    const caps = c.object(c.required(v, 'capabilities', ''), 'capabilities');
    const strategies = c.array(caps, 'strategies', 'capabilities');
    strategies.forEach((s, i) => c.asOneOf(s, `capabilities.strategies[${i}]`, STRATEGY_NAMES));
    if (caps.store !== null) c.string(caps, 'store', 'capabilities', 4096);
    checkStoreHealth(c, caps, 'storeHealth', 'capabilities');
    c.count(caps, 'maxRequestsPerSchedule', 'capabilities');
    c.count(caps, 'maxMessageBytes', 'capabilities');
    c.optionalString(v, 'cliCommand', '', 4096);
  },
  pong: () => undefined,
  measured: (c, v) => {
    c.string(v, 'pageId', '', MAX_FIELD);
    c.array(v, 'handshakes', '').forEach((h, i) => checkHandshake(c, h, `handshakes[${i}]`));
    c.array(v, 'warm', '').forEach((o, i) => c.asString(o, `warm[${i}]`, MAX_FIELD));
    c.array(v, 'failed', '').forEach((f, i) => {
      const o = c.object(f, `failed[${i}]`);
      for (const key of ['origin', 'code', 'message']) c.string(o, key, `failed[${i}]`, MAX_FIELD);
    });
    checkStoreHealth(c, v, 'storeHealth', '');
  },
  discovered: (c, v) => {
    c.string(v, 'url', '', MAX_URL_LENGTH);
    const resources = c.array(v, 'resources', '');
    if (resources.length > MAX_DISCOVERED) c.invalid('resources', `at most ${MAX_DISCOVERED} items`, resources.length);
    resources.forEach((r, i) => {
      const path = `resources[${i}]`;
      const o = c.object(r, path);
      c.string(o, 'url', path, MAX_URL_LENGTH);
      c.oneOf(o, 'as', path, DISCOVERED_AS);
      c.oneOf(o, 'via', path, DISCOVERED_VIA);
    });
  },
  'replay-result': (c, v) => {
    c.string(v, 'pageId', '', MAX_FIELD);
    c.oneOf(v, 'strategy', '', STRATEGY_NAMES);
    c.array(v, 'requests', '').forEach((r, i) => checkRequestRecord(c, r, `requests[${i}]`));
    if (v.startedAt !== undefined) number(c, v, 'startedAt', '');
    if (v.handshakes !== undefined) c.array(v, 'handshakes', '').forEach((h, i) => checkHandshake(c, h, `handshakes[${i}]`));
  },
  'replay-summary': (c, v) => {
    c.string(v, 'pageId', '', MAX_FIELD);
    c.array(v, 'summaries', '').forEach((s, i) => {
      const path = `summaries[${i}]`;
      const o = c.object(s, path);
      c.oneOf(o, 'strategy', path, STRATEGY_NAMES);
      for (const key of ['totalMs', 'meanTtfbMs', 'connectionsOpened', 'requestsPerConnection', 'requests', 'bytes', 'errors']) number(c, o, key, path);
      for (const key of ['handshakeP50Ms', 'handshakeP90Ms']) numberOrNull(c, o, key, path);
    });
  },
  stats: (c, v) => {
    c.count(v, 'count', '');
    checkStoreHealth(c, v, 'storeHealth', '');
    c.array(v, 'groups', '').forEach((g, i) => {
      const o = c.object(g, `groups[${i}]`);
      c.string(o, 'group', `groups[${i}]`, 64);
      c.string(o, 'key', `groups[${i}]`, MAX_FIELD);
      c.count(o, 'count', `groups[${i}]`);
      c.object(c.required(o, 'phases', `groups[${i}]`), `groups[${i}].phases`);
    });
  },
  export: (c, v) => {
    c.oneOf(v, 'format', '', EXPORT_FORMATS);
    c.string(v, 'mimeType', '', 256);
    c.required(v, 'data', '');
    if (typeof v.data !== 'string') c.invalid('data', 'a string', v.data);
  },
  forgotten: (c, v) => void c.count(v, 'removed', ''),
  recorded: (c, v) => void c.count(v, 'recorded', ''),
  chunk: (c, v) => {
    c.count(v, 'seq', '');
    c.count(v, 'total', '');
    c.string(v, 'data', '', MAX_FIELD);
  },
};

function number(c: Checker, o: Fields, key: string, path: string): number {
  const v = c.required(o, key, path);
  if (typeof v !== 'number' || !Number.isFinite(v)) c.invalid(join(path, key), 'a finite number', v);
  return v;
}

/** A finite number, or null for "not measured"; absent is `E_MISSING_FIELD` (records spell every field). */
function numberOrNull(c: Checker, o: Fields, key: string, path: string): void {
  if (c.required(o, key, path) !== null) number(c, o, key, path);
}

function stringOrNull(c: Checker, o: Fields, key: string, path: string): void {
  if (c.required(o, key, path) !== null) c.string(o, key, path, MAX_FIELD);
}

function checkHandshake(c: Checker, raw: unknown, path: string): void {
  const o = c.object(raw, path);
  c.string(o, 'origin', path, MAX_FIELD);
  for (const key of ['connectionId', 'startedAt', 'dnsMs', 'tcpMs', 'tlsMs', 'totalMs']) number(c, o, key, path);
  c.oneOf(o, 'protocol', path, ['h2', 'http/1.1']);
  c.required(o, 'resumed', path);
  c.optionalBoolean(o, 'resumed', path);
  if (o.loopDelayMs !== undefined) number(c, o, 'loopDelayMs', path);
}

function checkRequestRecord(c: Checker, raw: unknown, path: string): void {
  const o = c.object(raw, path);
  c.string(o, 'url', path, MAX_FIELD);
  c.oneOf(o, 'priority', path, PRIORITY_CLASSES);
  c.string(o, 'method', path, MAX_FIELD);
  for (const key of ['bytes', 'decodedBytes', 'attempts', 'discoveredMs', 'doneMs']) number(c, o, key, path);
  for (const key of ['status', 'connectionId', 'sentMs', 'ttfbMs']) numberOrNull(c, o, key, path);
  for (const key of ['resourceType', 'protocol']) stringOrNull(c, o, key, path);
  for (const key of ['reused', 'pipelined']) {
    c.required(o, key, path);
    c.optionalBoolean(o, key, path);
  }
  if (o.contradiction !== undefined) c.string(o, 'contradiction', path, MAX_FIELD);
  if (c.required(o, 'error', path) !== null) {
    const e = c.object(o.error, join(path, 'error'));
    c.string(e, 'code', join(path, 'error'), 256);
    c.string(e, 'message', join(path, 'error'), MAX_FIELD);
  }
}
