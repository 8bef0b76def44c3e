/**
 * The Padmanabhan & Mogul 1995 test page ("Improving HTTP Latency", figure 6-1): a small HTML
 * document with N inlined images of S bytes each, all on one server. The paper's two sizes
 * are 2544 bytes (a typical icon of the day) and 45566 bytes (a large photo).
 */
import { CorpusResource, PageBuild, CONTENT_TYPES } from './corpus-types';
import { makePageBuild } from './page-build';
import { Prng } from '../../src/core/prng';
import { heading, paragraph } from './synth-text';

/** The paper's image sizes. */
export const PM95_IMAGE_SIZES = [2544, 45566] as const;
/** Image counts the demo offers by name (`pm95-<size>-<count>`). */
export const PM95_IMAGE_COUNTS = [1, 5, 10, 20, 40] as const;

export function pm95Name(imageSize: number, imageCount: number): string {
  return `pm95-${imageSize}-${imageCount}`;
}

/** Builds `pm95-<imageSize>-<imageCount>`. Callers validate the parameters (see corpus.ts). */
export function buildPm95(imageSize: number, imageCount: number): PageBuild {
  const name = pm95Name(imageSize, imageCount);
  const base = `/${name}`;
  const docPath = `${base}/index.html`;
  const rng = new Prng(name);

  const resources: CorpusResource[] = [];
  const imgTags: string[] = [];
  const digits = String(imageCount).length;
  for (let i = 1; i <= imageCount; i++) {
    const path = `${base}/img/${String(i).padStart(digits, '0')}.gif`;
    resources.push({
      path, contentType: CONTENT_TYPES.gif, size: imageSize, discoveredBy: 'html', kind: 'image',
      referencedFrom: docPath, renderBlocking: false,
    });
    imgTags.push(`<img src="${path}" width="32" height="32" alt="inlined image ${i}">`);
  }

  const title = `Padmanabhan & Mogul 1995, figure 6-1: document with ${imageCount} inlined ${imageSize}-byte images`;
  // About 3 KB of prose around the images: the paper's document was small next to its images.
  const html = [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${title.replace(/&/g, '&amp;')}</title>`,
    // An explicit empty icon stops browsers from requesting /favicon.ico: N + 1 requests exactly.
    '<link rel="icon" href="data:,">',
    '</head><body>',
    `<h1>${heading(rng)}</h1>`,
    `<p>${paragraph(rng, 700)}</p>`,
    `<p>${paragraph(rng, 600)}</p>`,
    `<div class="figures">\n${imgTags.join('\n')}\n</div>`,
    `<h2>${heading(rng)}</h2>`,
    `<p>${paragraph(rng, 800)}</p>`,
    `<p>${paragraph(rng, 700)}</p>`,
    '</body></html>',
    '',
  ].join('\n');

  const page = { name, title, path: docPath, documentSize: html.length, resources };
  return makePageBuild(page, new Map([[docPath, html]]));
}
