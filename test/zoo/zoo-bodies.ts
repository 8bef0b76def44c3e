import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { docrootOf } from '../../bench/origins/docroot';
import type { ZooOrigins } from '../../bench/origins/zoo/start-zoo';
import type { ResponseHooks } from '../../native-host/transport/response-hooks';

/** The bytes a URL names in a zoo member's docroot for `origin`. */
export function zooFileOf(z: ZooOrigins, scheme: 'http' | 'https', origin: string, url: string): Buffer {
  return readFileSync(join(docrootOf(join(z.dir, 'www'), scheme, origin), new URL(url).pathname));
}

/**
 * Decoded chunks by dispatch, for a load's `observe`: a URL's body is its last dispatch's (a retry
 * or refetch is a new one). `onHead` sees every head too.
 */
export function lastBodies(onHead?: ResponseHooks['onResponseHead']): { observe: Pick<ResponseHooks, 'onResponseHead' | 'onBody'>; bodyOf: (url: string) => Buffer } {
  const chunks = new Map<number, Buffer[]>();
  const lastDispatch = new Map<string, number>();
  return {
    observe: {
      onResponseHead: (d, status, headers) => {
        onHead?.(d, status, headers);
        chunks.set(d.id, []);
        lastDispatch.set(d.request.url, Math.max(d.id, lastDispatch.get(d.request.url) ?? 0));
      },
      onBody: (d, chunk) => { chunks.get(d.id)?.push(Buffer.from(chunk)); },
    },
    bodyOf: (url) => Buffer.concat(chunks.get(lastDispatch.get(url) ?? -1) ?? []),
  };
}
