import type { HandshakeQuery } from '../store/store-types';
import { stringFlag, type FlagSpec, type ParsedArgs } from './args';
import { CliError } from './cli-error';

export const QUERY_FLAGS: Record<string, FlagSpec> = {
  origin: { type: 'string', value: 'O', default: 'every origin', description: 'only connections to this origin, e.g. https://example.com (a URL is cut to its origin)' },
  since: { type: 'string', value: 'D', default: 'the oldest record', description: 'from this time on: an ISO date or date-time (2025-01-31 is UTC midnight; 2025-01-31T08:00Z) or an age (45s, 30m, 12h, 7d, 2w)' },
  until: { type: 'string', value: 'D', default: 'now', description: 'before this time (same forms as --since)' },
};

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const ISO = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * A point in time given on the command line, as epoch ms: an age before `now` (`7d`, `12h`,
 * `30m`, `45s`, `2w`) or an ISO 8601 date or date-time. As in JavaScript, a bare date is UTC
 * midnight and a date-time without an offset is local time.
 */
export function parseTimeFlag(name: string, value: string, now: number): number {
  const age = /^(\d+(?:\.\d+)?)([smhdw])$/.exec(value.trim());
  if (age) return now - Number(age[1]) * (UNIT_MS[age[2] as string] as number);
  const t = ISO.test(value.trim()) ? Date.parse(value.trim()) : NaN;
  if (Number.isFinite(t)) return t;
  throw new CliError('E_USAGE', `--${name}: expected an ISO date (2025-01-31, 2025-01-31T08:00Z) or an age like 7d, 12h, 30m; got ${JSON.stringify(value)}`);
}

/** An http(s) origin in the form the store keys it by (`new URL(x).origin`). */
export function parseOriginFlag(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new CliError('E_USAGE', `--origin: expected an http or https origin like https://example.com, got ${JSON.stringify(value)}`);
  }
  return url.origin;
}

/** `--origin`, `--since`, `--until` as a store query. */
export function parseQueryFlags(args: ParsedArgs, now: number): HandshakeQuery {
  const query: HandshakeQuery = {};
  const origin = stringFlag(args, 'origin');
  const since = stringFlag(args, 'since');
  const until = stringFlag(args, 'until');
  if (origin !== undefined) query.origin = parseOriginFlag(origin);
  if (since !== undefined) query.since = parseTimeFlag('since', since, now);
  if (until !== undefined) query.until = parseTimeFlag('until', until, now);
  if (query.since !== undefined && query.until !== undefined && query.since >= query.until) {
    throw new CliError('E_USAGE', `--since (${new Date(query.since).toISOString()}) must be before --until (${new Date(query.until).toISOString()})`);
  }
  return query;
}

/** The query in words, for headers: `origin https://a.test, since 2025-01-01T00:00:00.000Z`. */
export function describeQuery(q: HandshakeQuery): string {
  const parts = [
    q.origin !== undefined ? `origin ${q.origin}` : undefined,
    q.since !== undefined ? `since ${new Date(q.since).toISOString()}` : undefined,
    q.until !== undefined ? `until ${new Date(q.until).toISOString()}` : undefined,
  ].filter((x): x is string => x !== undefined);
  return parts.length > 0 ? parts.join(', ') : 'all time';
}
