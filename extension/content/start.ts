/**
 * `content-start.js` (top frame, `document_start`, every http(s) page): starts the observers whose
 * records the main content script (`content.js`, injected by the background after `load`,
 * extension/background/content-injection.ts) takes over — see early-records.ts. Nothing else: the
 * page waits for this script to be parsed and run before it parses itself, so it only timestamps.
 * Hints are pushed by the background, into pages that have a learned list only (hint-push.ts).
 */
import { benchOff } from '../platform/bench-switches';
import { publishEarlyRecords, startEarlyRecords } from './early-records';

if (window.top === window && (location.protocol === 'http:' || location.protocol === 'https:')) {
  if (!(benchOff('discovery') && benchOff('timings'))) publishEarlyRecords(startEarlyRecords(document));
}
