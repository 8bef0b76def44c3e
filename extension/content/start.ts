/**
 * `content-start.js` (top frame, `document_start`): only starts the observers whose records the
 * main content script (`content.js`, `document_idle`) takes over — see early-records.ts. Kept a
 * few KB on purpose: the page waits for this script to be parsed and run before it parses itself.
 */
import { benchOff } from '../platform/bench-switches';
import { publishEarlyRecords, startEarlyRecords } from './early-records';

if (window.top === window && (location.protocol === 'http:' || location.protocol === 'https:') && !(benchOff('discovery') && benchOff('timings'))) {
  publishEarlyRecords(startEarlyRecords(document));
}
