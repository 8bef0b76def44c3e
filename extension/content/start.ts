/**
 * `content-start.js` (top frame, `document_start`, every http(s) page, Detailed capture only:
 * extension/background/early-recorder.ts): starts the observers whose records the main content
 * script (`content.js`, injected by the background after `load`, content-injection.ts) takes
 * over — see early-records.ts. Nothing else: the page waits for this script before it parses
 * itself, so it only timestamps.
 * Hints are pushed by the background, into pages that have a learned list only (hint-push.ts).
 */
import { DISCOVERY_OFF, TIMINGS_OFF } from '../platform/bench-switches';
import { publishEarlyRecords, startEarlyRecords } from './early-records';

if (window.top === window && (location.protocol === 'http:' || location.protocol === 'https:')) {
  const parts = { mutations: !DISCOVERY_OFF, timings: !TIMINGS_OFF };
  if (parts.mutations || parts.timings) publishEarlyRecords(startEarlyRecords(document, parts));
}
