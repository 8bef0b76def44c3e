import type { PageRecord } from './page-record';

/** One kind of failure in one strategy's replay: its code, how many requests, a reason a user can act on. */
export interface ReplayFailureGroup {
  code: string;
  count: number;
  /** One line: what went wrong and, where there is one, the fix. */
  reason: string;
  /** The first failed URL with this code. */
  example: string;
}

export interface StrategyVerdict {
  strategy: string;
  /** False when any request failed: the run fetched less than the page, so its times are not comparable. */
  valid: boolean;
  requests: number;
  failed: number;
  failures: ReplayFailureGroup[];
}

/**
 * A replay is only a measurement of the page when every request of it succeeded: a run in which
 * requests failed fast (an untrusted certificate fails in one round trip) finishes "early" and
 * would show a saving that is not there. One verdict per strategy that reported results.
 */
export function replayVerdicts(page: PageRecord): StrategyVerdict[] {
  return (page.replay?.results ?? []).map((r) => {
    const groups = new Map<string, ReplayFailureGroup>();
    for (const q of r.requests) {
      if (!q.error) continue;
      const g = groups.get(q.error.code);
      if (g) g.count++;
      else groups.set(q.error.code, { code: q.error.code, count: 1, reason: failureReason(q.error.code, q.error.message), example: q.url });
    }
    const failed = [...groups.values()].reduce((a, g) => a + g.count, 0);
    return { strategy: r.strategy, valid: failed === 0, requests: r.requests.length, failed, failures: [...groups.values()].sort((a, b) => b.count - a.count) };
  });
}

const CERT_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'CERT_UNTRUSTED',
]);

/** One line per failure code: what it means for the replay and what to do about it. */
export function failureReason(code: string, message = ''): string {
  if (CERT_CODES.has(code) || /self[- ]signed|unable to verify/i.test(message)) {
    return 'the server’s certificate is not trusted by the host (self-signed or private CA): trust that CA with `getlist load URL --ca FILE` on the command line, or add it to the system’s CA store for the host';
  }
  if (code === 'CERT_HAS_EXPIRED') return 'the server’s certificate has expired';
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return 'the server’s certificate does not name this host';
  if (code === 'ECONNREFUSED') return 'nothing accepted the connection at that address and port';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the host name did not resolve from the native host';
  if (code === 'ECONNRESET' || code === 'E_CONNECTION_GONE' || code === 'UND_ERR_SOCKET') return 'the server closed the connection before answering';
  if (/TIMEOUT/.test(code)) return 'no answer within the host’s time limit';
  return message ? `failed: ${message}` : 'failed';
}

/** What a figure of the comparison measures; only figures that measure the same thing are compared. */
export type Measures = 'last byte' | 'load event';

/**
 * The browser's own load to its last byte (the end of its last request), the figure comparable
 * to a replay's total; the load event also waits for scripts, layout and decoding, which a replay
 * does not do. Undefined until a request has ended.
 */
export function browserLastByteMs(page: PageRecord): number | undefined {
  let last = -1;
  for (const r of page.requests) if (r.endedAt !== undefined) last = Math.max(last, r.endedAt - page.startedAt);
  for (const t of page.timings) if (t.responseEnd > 0) last = Math.max(last, t.responseEnd);
  return last >= 0 ? last : undefined;
}
