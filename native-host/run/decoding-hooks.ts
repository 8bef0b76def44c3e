import type { ResponseHooks } from '../transport/response-hooks';
import { BodyDecoder } from './body-decoder';

/**
 * Wraps a run's response hooks so every body is content-decoded as it streams: `inner` sees
 * decoded chunks (the scanner reads text, not gzip), and the decoded size of each encoded body is
 * put in `decodedBytes` under its scheduler request id (the final attempt's, as `bytes` is).
 * The transport asks with the browser's `Accept-Encoding`, so this is what makes wire bytes and
 * decoded bytes both measurable for every run — a page load, a replay and the bench alike.
 *
 * Invariant: `inner.onBodyEnd` runs after the last decoded byte was handed to `inner.onBody`, and
 * the request settles only after it (the transport waits for the returned promise).
 */
export function decodingHooks(inner: ResponseHooks | undefined, decodedBytes: Map<number, number>): ResponseHooks {
  /** By dispatch id: a retried request has a new dispatch. */
  const decoders = new Map<number, BodyDecoder>();
  return {
    onSent: (d, rttMs) => inner?.onSent?.(d, rttMs),
    onResponseHead: (d, status, headers) => {
      decoders.delete(d.id);
      const encoding = headerValue(headers['content-encoding']).trim().toLowerCase();
      if (BodyDecoder.decodes(encoding)) decoders.set(d.id, new BodyDecoder(encoding, (chunk) => inner?.onBody?.(d, chunk)));
      inner?.onResponseHead?.(d, status, headers);
    },
    onBody: (d, chunk) => {
      const decoder = decoders.get(d.id);
      if (decoder) decoder.write(chunk);
      else inner?.onBody?.(d, chunk);
    },
    onBodyEnd: (d) => {
      const decoder = decoders.get(d.id);
      if (!decoder) return inner?.onBodyEnd?.(d);
      decoders.delete(d.id);
      return decoder.end().then(() => {
        decodedBytes.set(d.request.id, decoder.decodedBytes);
        return inner?.onBodyEnd?.(d);
      });
    },
  };
}

function headerValue(v: string | string[] | undefined): string {
  return Array.isArray(v) ? v.join(', ') : (v ?? '');
}
