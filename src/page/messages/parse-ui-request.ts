import { HANDSHAKE_SOURCES, isHandshakeSource, type HandshakeSource } from '../../stats/handshake';
import { CodedError } from '../../core/coded-error';
import { EXPORT_FORMATS } from '../../stats/export-formats';
import type { Settings, UiRequest } from './messages';

/** A UI request that cannot be served as sent. `code` is `E_UNKNOWN_TYPE` or `E_INVALID_FIELD`. */
export class UiRequestError extends CodedError<'E_UNKNOWN_TYPE' | 'E_INVALID_FIELD'> {
  override readonly name = 'UiRequestError';
}

const TYPES: ReadonlyArray<UiRequest['type']> = ['get-page', 'run-replay', 'host-status', 'stats', 'export', 'forget', 'get-settings', 'set-settings', 'get-hints', 'get-speculation', 'apply-suggestion', 'get-suggestions'];

/**
 * Checks a message from an extension page before the background acts on it. Field values the host
 * validates again (origins, strategy names) are only checked for their type here.
 */
export function parseUiRequest(value: unknown): UiRequest {
  if (typeof value !== 'object' || value === null) throw new UiRequestError('E_INVALID_FIELD', 'a UI request must be an object');
  const m = value as Record<string, unknown>;
  if (typeof m.type !== 'string' || !(TYPES as readonly string[]).includes(m.type)) throw new UiRequestError('E_UNKNOWN_TYPE', `type: expected one of ${TYPES.join(', ')}, got ${JSON.stringify(m.type)}`);
  const type = m.type as UiRequest['type'];
  switch (type) {
    case 'get-page':
    case 'get-hints':
    case 'get-speculation':
    case 'get-suggestions':
      return { channel: 'ui', type, tabId: tabId(m.tabId) };
    case 'apply-suggestion':
      if (typeof m.href !== 'string' || !/^https?:\/\//.test(m.href)) fail('href', 'an http(s) URL or origin', m.href);
      return { channel: 'ui', type, tabId: tabId(m.tabId), href: m.href };
    case 'run-replay':
      if (m.strategies !== undefined && !(Array.isArray(m.strategies) && m.strategies.every((s) => typeof s === 'string'))) fail('strategies', 'an array of strategy names', m.strategies);
      return { channel: 'ui', type, tabId: tabId(m.tabId), ...(m.strategies === undefined ? {} : { strategies: m.strategies as string[] }) };
    case 'stats':
      return { channel: 'ui', type, ...source(m), ...optional(m, 'origin', 'string'), ...optional(m, 'since', 'number'), ...optional(m, 'until', 'number') };
    case 'export':
      if (!(EXPORT_FORMATS as readonly unknown[]).includes(m.format)) fail('format', EXPORT_FORMATS.join(', '), m.format);
      return { channel: 'ui', type, format: m.format as 'csv' | 'json' | 'prom', ...source(m), ...optional(m, 'origin', 'string'), ...optional(m, 'since', 'number') };
    case 'forget':
      if (m.all === true && m.origin === undefined) return { channel: 'ui', type, all: true };
      if (typeof m.origin === 'string' && m.all === undefined) return { channel: 'ui', type, origin: m.origin };
      return fail('origin', 'an origin string, or all: true (and not both) to forget everything', m.origin ?? m.all);
    case 'set-settings':
      if (typeof m.settings !== 'object' || m.settings === null) fail('settings', 'an object', m.settings);
      return { channel: 'ui', type, settings: m.settings as Partial<Settings> };
    case 'host-status':
    case 'get-settings':
      return { channel: 'ui', type };
  }
}

/** Who opened the connections to show: the browser, the host or the CLI; every source when absent. */
function source(m: Record<string, unknown>): { source?: HandshakeSource } {
  if (m.source === undefined) return {};
  if (!isHandshakeSource(m.source)) fail('source', HANDSHAKE_SOURCES.join(', '), m.source);
  return { source: m.source };
}

function tabId(v: unknown): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) fail('tabId', 'a tab id (an integer ≥ 0)', v);
  return v;
}

function optional(m: Record<string, unknown>, key: string, kind: 'string' | 'number'): Record<string, unknown> {
  const v = m[key];
  if (v === undefined) return {};
  if (typeof v !== kind || (kind === 'number' && !Number.isFinite(v))) fail(key, kind === 'string' ? 'a string' : 'a finite number', v);
  return { [key]: v };
}

function fail(path: string, expected: string, got: unknown): never {
  throw new UiRequestError('E_INVALID_FIELD', `${path}: expected ${expected}, got ${got === undefined ? 'nothing' : JSON.stringify(got)?.slice(0, 60) ?? typeof got}`);
}
