import { PRIORITY_CLASSES, type PriorityClass } from '../core/priority';

/**
 * RFC 9218 ("Extensible Prioritization Scheme for HTTP") `priority` header field for each priority
 * class: urgency 0 (most urgent) to 7, and `i` for responses a client can use in pieces
 * (progressive images). Urgency 3 is the RFC's default, so plain images say nothing new but
 * `i`; the order follows what render needs first (§4.1: the document and render-blocking
 * resources lowest).
 *
 * What undici 7 allows (lib/dispatcher/client-h2.js): request headers pass through to the HEADERS
 * frame, so this field reaches the server. It offers no way to send RFC 9218 PRIORITY_UPDATE
 * frames (re-prioritising a stream already open), nor RFC 7540 stream weights or dependencies: it
 * calls `session.request(headers, { endStream, signal })` without Node's `weight`, `parent` or
 * `exclusive` options and never exposes the stream. Stream order is the one lever left: the
 * scheduler opens streams in priority order, urgent ones first.
 */
const URGENCY: Readonly<Record<PriorityClass, string>> = {
  document: 'u=0',
  blocking: 'u=0',
  font: 'u=1',
  'visible-image': 'u=2, i',
  script: 'u=2',
  image: 'u=3, i',
  other: 'u=4',
  prefetch: 'u=7',
};

export function prioritySignal(priority: PriorityClass): string {
  return URGENCY[priority];
}

/** Every class's field, in class order (for transports that precompute header sets). */
export const PRIORITY_SIGNALS: ReadonlyArray<readonly [PriorityClass, string]> = PRIORITY_CLASSES.map((c) => [c, URGENCY[c]]);
