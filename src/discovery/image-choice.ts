import { matchesMedia } from './media-query';
import type { Attributes } from './reference';
import { sourceSizePx } from './source-size';
import { parseSrcset } from './srcset';
import { selectImageCandidate } from './srcset-select';
import { isSupportedImageType } from './image-types';
import type { Viewport } from './viewport';

/** The one URL (as written) an image element makes the browser fetch, and the attribute it came from. */
export interface ImageChoice {
  value: string;
  attribute: 'src' | 'srcset' | 'href' | 'imagesrcset';
}

/**
 * `<img>` outside `<picture>` (or `<picture>` with no usable `<source>`): the candidate of `srcset`
 * + `sizes` for the viewport, `src` counted as `1x` (HTML "update the image data").
 */
export function chooseImg(attribs: Attributes, viewport: Viewport): ImageChoice | undefined {
  return chooseFromSet(attribs.srcset, attribs.sizes, attribs.src, 'src', 'srcset', attribs.width, viewport);
}

/**
 * A `<source>` in `<picture>`: `undefined` when the browser skips it (no srcset candidate, `media`
 * not matching, `type` not supported); otherwise its choice — possibly `{ value: '' }` when the
 * chosen candidate is empty, which still ends the search.
 */
export function choosePictureSource(attribs: Attributes, viewport: Viewport): ImageChoice | undefined {
  if (attribs.srcset === undefined || parseSrcset(attribs.srcset).length === 0) return undefined;
  if (!matchesMedia(attribs.media, viewport) || !isSupportedImageType(attribs.type)) return undefined;
  return chooseFromSet(attribs.srcset, attribs.sizes, undefined, 'src', 'srcset', attribs.width, viewport) ?? { value: '', attribute: 'srcset' };
}

/** `<link rel=preload as=image>`: `imagesrcset` + `imagesizes`, `href` as the `1x` fallback. */
export function choosePreloadImage(attribs: Attributes, viewport: Viewport): ImageChoice | undefined {
  return chooseFromSet(attribs.imagesrcset, attribs.imagesizes, attribs.href, 'href', 'imagesrcset', undefined, viewport);
}

function chooseFromSet(
  srcset: string | undefined,
  sizes: string | undefined,
  src: string | undefined,
  srcName: ImageChoice['attribute'],
  setName: ImageChoice['attribute'],
  width: string | undefined,
  viewport: Viewport,
): ImageChoice | undefined {
  const candidates = srcset === undefined ? [] : parseSrcset(srcset);
  if (candidates.length === 0) return src === undefined ? undefined : { value: src, attribute: srcName };
  const picked = selectImageCandidate(candidates, sourceSizePx(sizes, viewport, width), viewport.dpr, src);
  if (picked === undefined) return undefined;
  return { value: picked, attribute: picked === src && !candidates.some((c) => c.url === src) ? srcName : setName };
}
