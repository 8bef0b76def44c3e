import { PATH_SAMPLE_METHOD } from './path-sample';
import type { HintAs, LearnedEntry, LearnedOrigin, LearnedResource, LearnedState, PathSample, Visit } from './hint-types';
import { createLearnedState } from './learned-state';

/**
 * The learned state as stored in `storage.local`, and back. Storage may hold anything an older or
 * corrupted build wrote: reading keeps every entry, visit and item that is well-formed and drops
 * the rest, item by item, rather than failing.
 */

const AS: ReadonlySet<string> = new Set<HintAs>(['font', 'style', 'image', 'script']);
const MAX_URL = 8192;

export interface StoredLearnedState {
  version: 1;
  entries: LearnedEntry[];
}

export function learnedStateToJson(state: LearnedState): StoredLearnedState {
  return { version: 1, entries: [...state.entries.values()] };
}

export function learnedStateFromJson(stored: unknown): LearnedState {
  const state = createLearnedState();
  if (!isObject(stored) || stored.version !== 1 || !Array.isArray(stored.entries)) return state;
  for (const e of stored.entries) {
    const entry = learnedEntryFromJson(e);
    if (entry) state.entries.set(entry.key, entry);
  }
  return state;
}

/** One stored entry, validated item by item as the whole state is; undefined when nothing of it is well-formed. */
export function learnedEntryFromJson(v: unknown): LearnedEntry | undefined {
  if (!isObject(v) || !isUrl(v.key) || (v.kind !== 'page' && v.kind !== 'template') || typeof v.host !== 'string' || !Array.isArray(v.visits)) return undefined;
  const visits = v.visits.map(toVisit).filter((x): x is Visit => x !== undefined);
  const blocked = Array.isArray(v.blocked) ? v.blocked.filter(isUrl) : [];
  return visits.length === 0 ? undefined : { key: v.key, kind: v.kind, host: v.host, visits, blocked };
}

function toVisit(v: unknown): Visit | undefined {
  if (!isObject(v) || !isNumber(v.at) || !isUrl(v.url) || typeof v.hinted !== 'boolean' || !Array.isArray(v.resources) || !Array.isArray(v.origins)) return undefined;
  const path = toPath(v.path);
  return {
    at: v.at,
    url: v.url,
    hinted: v.hinted,
    ...(isNumber(v.completeMs) ? { completeMs: v.completeMs } : {}),
    ...(path ? { path } : {}),
    ...(isNumber(v.documentMs) && v.documentMs > 0 ? { documentMs: v.documentMs } : {}),
    ...(isNumber(v.paintMs) && v.paintMs > 0 ? { paintMs: v.paintMs } : {}),
    resources: v.resources.map(toResource).filter((x): x is LearnedResource => x !== undefined),
    origins: v.origins.map(toOrigin).filter((x): x is LearnedOrigin => x !== undefined),
  };
}

function toResource(v: unknown): LearnedResource | undefined {
  if (!isObject(v) || !isUrl(v.url) || typeof v.as !== 'string' || !AS.has(v.as) || typeof v.late !== 'boolean' || !isNumber(v.atMs) || typeof v.inViewport !== 'boolean' || !isNumber(v.size)) return undefined;
  return {
    url: v.url,
    as: v.as as HintAs,
    ...(v.crossorigin === 'anonymous' ? { crossorigin: 'anonymous' as const } : {}),
    ...(typeof v.type === 'string' && /^[a-z]+\/[a-z0-9.+-]+$/i.test(v.type) ? { type: v.type } : {}),
    late: v.late,
    atMs: v.atMs,
    inViewport: v.inViewport,
    size: v.size,
    ...(v.host === true ? { host: true as const } : {}),
    ...(v.cached === true ? { cached: true as const } : {}),
  };
}

function toPath(v: unknown): PathSample | undefined {
  // A sample of another method is expired: the older ones misread the path (PATH_SAMPLE_METHOD).
  if (!isObject(v) || v.method !== PATH_SAMPLE_METHOD || !isNumber(v.criticalBytes) || !isNumber(v.deliveryBytesPerMs) || !isNumber(v.rttMs) || v.criticalBytes < 0 || v.deliveryBytesPerMs <= 0 || v.rttMs <= 0) return undefined;
  return { criticalBytes: v.criticalBytes, deliveryBytesPerMs: v.deliveryBytesPerMs, rttMs: v.rttMs, method: PATH_SAMPLE_METHOD };
}

function toOrigin(v: unknown): LearnedOrigin | undefined {
  if (!isObject(v) || !isUrl(v.origin) || !isNumber(v.atMs)) return undefined;
  return {
    origin: v.origin,
    ...(v.crossorigin === 'anonymous' ? { crossorigin: 'anonymous' as const } : {}),
    atMs: v.atMs,
    ...(v.critical === true ? { critical: true as const } : {}),
    ...(isNumber(v.bytes) && v.bytes >= 0 ? { bytes: v.bytes } : {}),
    ...(isNumber(v.endMs) ? { endMs: v.endMs } : {}),
    ...(isNumber(v.heldMs) && v.heldMs >= 0 ? { heldMs: v.heldMs } : {}),
    ...(v.cached === true ? { cached: true as const } : {}),
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

function isUrl(v: unknown): v is string {
  return typeof v === 'string' && v.length <= MAX_URL && /^https?:\/\//.test(v);
}
