/**
 * `content-hints.js` (top frame, `document_start`), registered by the background only on hosts with
 * learned hints (extension/background/hint-script.ts): asks for the page's list and inserts it as
 * `<link>` elements (hint-links.ts). Pages on other hosts never load it.
 */
import { insertHintLinks } from './hint-links';

if (window.top === window && (location.protocol === 'http:' || location.protocol === 'https:')) insertHintLinks(document);
