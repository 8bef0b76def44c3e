import { StoreError } from './store-errors';

/** The checked value, or E_STORE_RECORD naming where the first bad field is (`handshakes[1].tcpMs: …`). */
export function valid<T>(result: { value: T } | { problem: string }, where: string): T {
  if ('value' in result) return result.value;
  throw new StoreError('E_STORE_RECORD', `${where}.${result.problem}`);
}

/** Checks a query's fields. @throws StoreError `E_STORE_QUERY` saying what was expected. */
export function checkQuery<Q extends { origin?: string; since?: number; until?: number }>(q: Q): Q {
  for (const name of ['since', 'until'] as const) {
    const v = q[name];
    if (v !== undefined && !(typeof v === 'number' && Number.isFinite(v))) {
      throw new StoreError('E_STORE_QUERY', `${name}: expected epoch ms, got ${String(v)}`);
    }
  }
  if (q.origin !== undefined && (typeof q.origin !== 'string' || q.origin === '')) {
    throw new StoreError('E_STORE_QUERY', `origin: expected an origin like "https://example.com", got ${JSON.stringify(q.origin)}`);
  }
  return q;
}
