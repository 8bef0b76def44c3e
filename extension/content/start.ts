/**
 * `content-start.js` (top frame, `document_start`): asks for the page's learned hints (lean
 * capture inserts them as `<link>` elements, hint-links.ts) and starts the observers whose records the
 * main content script (`content.js`, `document_idle`) takes over — see early-records.ts. Kept a
 * few KB on purpose: the page waits for this script to be parsed and run before it parses itself.
 */
import { benchOff } from '../platform/bench-switches';
import { publishEarlyRecords, startEarlyRecords } from './early-records';
import { insertHintLinks } from './hint-links';

if (window.top === window && (location.protocol === 'http:' || location.protocol === 'https:')) {
  // First: the answer takes a round trip to the background, and the earlier the hints, the better.
  if (!benchOff('hints')) insertHintLinks(document);
  if (!(benchOff('discovery') && benchOff('timings'))) publishEarlyRecords(startEarlyRecords(document));
}
