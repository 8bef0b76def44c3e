import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createHtmlScanner as createScanner, scanHtml } from '../../src/discovery/html-scanner';
import type { DiscoveredResource } from '../../src/discovery/types';

const FIXTURES = join(__dirname, '../fixtures/discovery');
export const fixtureBytes = (name: string): Uint8Array => new Uint8Array(readFileSync(join(FIXTURES, name)));
export const fixtureNames = readdirSync(FIXTURES).filter((n) => n.endsWith('.html')).sort();
export const DOC = 'https://example.test/shop/page.html';

/**
 * The scanner without the end-of-load favicon (`/favicon.ico` for a page without icon links), so
 * these tests see only what the markup names; the favicon has its own tests.
 */
export const scan = (html: string | Uint8Array, url: string, options: Parameters<typeof scanHtml>[2] = {}) => scanHtml(html, url, { favicon: false, ...options });
export const createHtmlScanner = (options: Parameters<typeof createScanner>[0]) => createScanner({ favicon: false, ...options });

/** Feeds `bytes` in the given chunk lengths (cycled) and collects what is reported. */
export function scanInChunks(bytes: Uint8Array, chunkSize: number, documentUrl = DOC): DiscoveredResource[] {
  const found: DiscoveredResource[] = [];
  const scanner = createHtmlScanner({ documentUrl, onResource: (r) => found.push(r) });
  for (let i = 0; i < bytes.length; i += chunkSize) scanner.write(bytes.subarray(i, i + chunkSize));
  scanner.end();
  return found;
}
