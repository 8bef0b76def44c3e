import { ACCEPT_ENCODING, acceptFor } from '../../src/discovery';
import type { PriorityClass } from '../../src/core/priority';
import { PRIORITY_SIGNALS } from '../../src/scheduler/priority-signal';
import { hasZstd } from './zstd';

type Headers = Record<string, string>;

/**
 * Request headers by destination, as a browser sends them: its `Accept` for the kind of request
 * and its `Accept-Encoding` (so text crosses the link compressed, as it does for a browser; byte
 * counts are wire body bytes), plus on h2 each class's RFC 9218 `priority` field
 * (src/scheduler/priority-signal.ts). Never cookies or credentials. Each combination is built
 * once: this is on the per-request path.
 */
export class RequestHeaders {
  private readonly byKey = new Map<string, Headers>();
  /** The same without a `priority` field (every HTTP/1.1 request), by resource type: no key to build per request. */
  private readonly plain = { http: new Map<string | undefined, Headers>(), https: new Map<string | undefined, Headers>() };
  private readonly prioritySignals: ReadonlyMap<PriorityClass, string> = new Map(PRIORITY_SIGNALS);

  constructor(private readonly userAgent: string) {}

  /** The headers of a request for `resourceType` on an https (`secure`) or http origin; `priority` only where signalled (h2). */
  for(resourceType: string | undefined, secure: boolean, priority: PriorityClass | undefined): Headers {
    if (priority === undefined) {
      const byType = secure ? this.plain.https : this.plain.http;
      let h = byType.get(resourceType);
      if (!h) {
        h = this.built(resourceType, secure, undefined);
        byType.set(resourceType, h);
      }
      return h;
    }
    return this.built(resourceType, secure, priority);
  }

  private built(resourceType: string | undefined, secure: boolean, priority: PriorityClass | undefined): Headers {
    const accept = acceptFor(resourceType);
    const signal = priority === undefined ? undefined : this.prioritySignals.get(priority);
    const key = `${secure ? 's' : ''}${accept}|${signal ?? ''}`;
    let h = this.byKey.get(key);
    if (!h) {
      h = { 'user-agent': this.userAgent, accept, 'accept-encoding': acceptEncoding(secure), ...(signal ? { priority: signal } : {}) };
      this.byKey.set(key, h);
    }
    return h;
  }
}

/**
 * The browser's `Accept-Encoding`: Chromium offers `br` and `zstd` only over https (a proxy on a
 * cleartext path may mangle them), so over http it is `gzip, deflate`. `zstd` only where this Node
 * can decode it (zstd.ts).
 */
export function acceptEncoding(secure: boolean): string {
  if (!secure) return 'gzip, deflate';
  return hasZstd ? `${ACCEPT_ENCODING}, zstd` : ACCEPT_ENCODING;
}
