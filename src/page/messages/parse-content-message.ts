import { CodedError } from '../../core/coded-error';
import { MAX_URL_LENGTH } from '../../protocol/version';
import { isPriorityClass } from '../../core/priority';
import type { ContentMessage } from './messages';
import type { LinkRefusal } from '../speculation/link-safety';
import type { ServedReport } from '../speculation/speculation-types';
import type { Discovery, DiscoverySource, NavigationTiming, TimingEntry } from '../model/page-record';

/**
 * The background's check of a content-script message. Content scripts run inside web pages, the
 * least trusted context the extension has, so every field is checked before it is stored.
 * @throws ContentMessageError naming the field, what was expected and what arrived.
 */
export class ContentMessageError extends CodedError<'E_INVALID_MESSAGE'> {
  override readonly name = 'ContentMessageError';
  constructor(message: string) {
    super('E_INVALID_MESSAGE', message);
  }
}

/** Items one message may carry. */
const MAX_ITEMS = 5000;
const MAX_LABEL = 256;

const TIMING_NUMBERS = ['startTime', 'domainLookupStart', 'domainLookupEnd', 'connectStart', 'secureConnectionStart', 'connectEnd', 'requestStart', 'responseStart', 'responseEnd', 'transferSize', 'encodedBodySize'] as const;
const NAVIGATION_NUMBERS = ['responseStart', 'domContentLoadedEventEnd', 'loadEventEnd'] as const;
/** Fields newer content scripts send; a message without them is still valid. */
const OPTIONAL_TIMING_NUMBERS = ['fetchStart', 'responseStatus'] as const;
const OPTIONAL_NAVIGATION_NUMBERS = ['timeOrigin', 'domContentLoadedEventStart', 'fetchStart', 'domainLookupStart', 'domainLookupEnd', 'connectStart', 'secureConnectionStart', 'connectEnd', 'requestStart', 'responseEnd', 'transferSize', 'encodedBodySize', 'responseStatus', 'redirectCount', 'firstContentfulPaint'] as const;

export function parseContentMessage(value: unknown): ContentMessage {
  const m = object(value, 'message');
  if (m.channel !== 'content') fail('channel', '"content"', m.channel);
  const loadedAt = m.loadedAt === undefined ? {} : { loadedAt: number(m.loadedAt, 'loadedAt') };
  if (m.type === 'discoveries') {
    const scanned = m.styleScanned === undefined ? false : boolean(m.styleScanned, 'styleScanned');
    return { channel: 'content', type: 'discoveries', items: list(m.items, 'items').map(discovery), ...loadedAt, ...(scanned ? { styleScanned: true as const } : {}) };
  }
  if (m.type === 'timings') {
    const entries = list(m.entries, 'entries').map(timing);
    const bufferFull = m.bufferFull === undefined ? undefined : boolean(m.bufferFull, 'bufferFull');
    return {
      channel: 'content',
      type: 'timings',
      entries,
      ...(m.navigation === undefined ? {} : { navigation: navigation(m.navigation) }),
      ...(bufferFull ? { bufferFull } : {}),
      ...loadedAt,
      ...(m.documentCookies === undefined ? {} : { documentCookies: boolean(m.documentCookies, 'documentCookies') }),
    };
  }
  if (m.type === 'speculation-ready' || m.type === 'speculation-links' || m.type === 'speculated' || m.type === 'speculation-kept') return parseSpeculationMessage(m);
  // No content script asks for hints any more (the background pushes them, hint-push.ts): an older
  // content script's `hints` request gets this error, which it ignores.
  return fail('type', '"discoveries" or "timings", or a speculation report', m.type);
}

const REFUSALS: ReadonlySet<string> = new Set<LinkRefusal>(['not-http', 'cross-origin', 'credentials', 'same-page', 'not-document', 'action', 'unknown-query', 'download', 'other-window', 'no-store']);

function parseSpeculationMessage(m: Record<string, unknown>): ContentMessage {
  if (m.type === 'speculation-kept') return { channel: 'content', type: 'speculation-kept', kept: boolean(m.kept, 'kept') };
  if (m.type === 'speculated') {
    if (m.action !== 'prefetch' && m.action !== 'prerender') fail('action', '"prefetch" or "prerender"', m.action);
    return { channel: 'content', type: 'speculated', url: string(m.url, 'url', MAX_URL_LENGTH), action: m.action };
  }
  if (m.type === 'speculation-links') {
    const refused: Partial<Record<LinkRefusal, number>> = {};
    for (const [code, n] of Object.entries(object(m.refused, 'refused'))) {
      if (!REFUSALS.has(code)) fail(`refused.${code.slice(0, 40)}`, 'a refusal code', code);
      refused[code as LinkRefusal] = count(n, `refused.${code}`);
    }
    return { channel: 'content', type: 'speculation-links', candidates: count(m.candidates, 'candidates'), refused };
  }
  const s = object(m.served, 'served');
  const served: ServedReport = {
    deliveryType: string(s.deliveryType, 'served.deliveryType', MAX_LABEL),
    prerendered: boolean(s.prerendered, 'served.prerendered'),
    navigationType: string(s.navigationType, 'served.navigationType', MAX_LABEL),
    responseStartMs: nonNegative(s.responseStartMs, 'served.responseStartMs'),
    ...(s.lcpMs === undefined ? {} : { lcpMs: nonNegative(s.lcpMs, 'served.lcpMs') }),
    ...(s.encodedBodySize === undefined ? {} : { encodedBodySize: count(s.encodedBodySize, 'served.encodedBodySize') }),
  };
  return {
    channel: 'content',
    type: 'speculation-ready',
    served,
    saveData: boolean(m.saveData, 'saveData'),
    ownRules: boolean(m.ownRules, 'ownRules'),
    ...(m.rulesSupported === undefined ? {} : { rulesSupported: boolean(m.rulesSupported, 'rulesSupported') }),
  };
}

function nonNegative(v: unknown, path: string): number {
  const n = number(v, path);
  if (n < 0) fail(path, 'a number ≥ 0', v);
  return n;
}

function count(v: unknown, path: string): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) fail(path, 'an integer ≥ 0', v);
  return v;
}

function discovery(v: unknown, i: number): Discovery {
  const path = `items[${i}]`;
  const d = object(v, path);
  if (!isPriorityClass(d.priority)) fail(`${path}.priority`, 'a priority class', d.priority);
  return {
    url: string(d.url, `${path}.url`, MAX_URL_LENGTH),
    kind: string(d.kind, `${path}.kind`, MAX_LABEL) as Discovery['kind'],
    priority: d.priority,
    atMs: number(d.atMs, `${path}.atMs`),
    inViewport: boolean(d.inViewport, `${path}.inViewport`),
    tag: string(d.tag, `${path}.tag`, MAX_LABEL),
    late: boolean(d.late, `${path}.late`),
    ...(d.atSource === undefined ? {} : { atSource: discoverySource(d.atSource, `${path}.atSource`) }),
  };
}

function discoverySource(v: unknown, path: string): DiscoverySource {
  if (v !== 'dom' && v !== 'resource-timing' && v !== 'webrequest') fail(path, '"dom", "resource-timing" or "webrequest"', v);
  return v;
}

function timing(v: unknown, i: number): TimingEntry {
  const path = `entries[${i}]`;
  const t = object(v, path);
  const entry = {
    name: string(t.name, `${path}.name`, MAX_URL_LENGTH),
    initiatorType: string(t.initiatorType, `${path}.initiatorType`, MAX_LABEL),
    nextHopProtocol: string(t.nextHopProtocol, `${path}.nextHopProtocol`, MAX_LABEL),
    restricted: boolean(t.restricted, `${path}.restricted`),
  } as TimingEntry;
  for (const key of TIMING_NUMBERS) entry[key] = number(t[key], `${path}.${key}`);
  for (const key of OPTIONAL_TIMING_NUMBERS) if (t[key] !== undefined) entry[key] = number(t[key], `${path}.${key}`);
  return entry;
}

function navigation(v: unknown): NavigationTiming {
  const n = object(v, 'navigation');
  const nav = { nextHopProtocol: string(n.nextHopProtocol, 'navigation.nextHopProtocol', MAX_LABEL) } as NavigationTiming;
  for (const key of NAVIGATION_NUMBERS) nav[key] = number(n[key], `navigation.${key}`);
  for (const key of OPTIONAL_NAVIGATION_NUMBERS) if (n[key] !== undefined) nav[key] = number(n[key], `navigation.${key}`);
  if (n.contentType !== undefined) nav.contentType = string(n.contentType, 'navigation.contentType', MAX_LABEL);
  return nav;
}

function object(v: unknown, path: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(path, 'an object', v);
  return v as Record<string, unknown>;
}

function list(v: unknown, path: string): unknown[] {
  if (!Array.isArray(v) || v.length > MAX_ITEMS) fail(path, `an array of at most ${MAX_ITEMS} items`, v);
  return v;
}

function string(v: unknown, path: string, max: number): string {
  if (typeof v !== 'string' || v.length > max) fail(path, `a string of at most ${max} characters`, v);
  return v;
}

function number(v: unknown, path: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(path, 'a finite number', v);
  return v;
}

function boolean(v: unknown, path: string): boolean {
  if (typeof v !== 'boolean') fail(path, 'true or false', v);
  return v;
}

function fail(path: string, expected: string, got: unknown): never {
  const what = Array.isArray(got) ? `an array of ${got.length}` : got === null ? 'null' : typeof got === 'string' ? JSON.stringify(got.slice(0, 40)) : typeof got === 'object' ? 'an object' : String(got);
  throw new ContentMessageError(`${path}: expected ${expected}, got ${what}`);
}
