/**
 * A 200-request page for the diagnosis benchmark, shaped like a heavy real page: ten origins, style
 * sheets that `@import` others, fonts and background images named only in style sheets, scripts
 * and images in the markup. The corpus's largest page has fewer requests (almanac-p90), and the
 * goal is stated for 200.
 */
import type { BenchPage, BenchResource, OriginPath } from '../corpus/bench-corpus';

const ORIGINS = Array.from({ length: 10 }, (_, i) => `o${i}.example.test`);

export function page200(): BenchPage {
  const document = { origin: ORIGINS[0] as string, path: '/index.html', contentType: 'text/html', size: 60_000 };
  const resources: BenchResource[] = [];
  const add = (i: number, kind: BenchResource['kind'], path: string, size: number, from: OriginPath, discoveredBy: 'html' | 'css') => {
    const r: BenchResource = { origin: ORIGINS[i % ORIGINS.length] as string, path, contentType: 'application/octet-stream', size, kind, discoveredBy, referencedFrom: from, renderBlocking: discoveredBy === 'html' && kind !== 'image' };
    resources.push(r);
    return r;
  };
  const sheets = Array.from({ length: 12 }, (_, i) => add(i, 'stylesheet', `/css/s${i}.css`, 8_000 + 1_000 * i, document, 'html'));
  const imported = sheets.slice(0, 6).map((s, i) => add(i + 3, 'stylesheet', `/css/import-${i}.css`, 6_000, s, 'css'));
  for (let i = 0; i < 12; i++) add(i + 1, 'font', `/fonts/f${i}.woff2`, 30_000, imported[i % imported.length] as OriginPath, 'css');
  for (let i = 0; i < 30; i++) add(i + 2, 'image', `/bg/b${i}.png`, 4_000 + 300 * i, sheets[i % sheets.length] as OriginPath, 'css');
  for (let i = 0; i < 40; i++) add(i, 'script', `/js/j${i}.js`, 5_000 + 700 * i, document, 'html');
  const rest = 199 - resources.length;
  for (let i = 0; i < rest; i++) add(i + 5, 'image', `/img/i${i}.jpg`, 2_000 + 450 * i, document, 'html');
  return { name: 'diagnosis-200', title: 'A 200-request page', source: 'constructed', origins: ORIGINS, document, resources, singleOrigin: false };
}
