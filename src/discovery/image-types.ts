import { normalizeKeyword } from './ascii';

/**
 * Image MIME types Chromium decodes (what decides `<picture><source type>` and `image-set(type())`).
 * JPEG XL is left out: Chromium 156 ships it only behind a flag.
 */
const SUPPORTED_IMAGE_TYPES: ReadonlySet<string> = new Set([
  'image/avif',
  'image/webp',
  'image/apng',
  'image/png',
  'image/jpeg',
  'image/jpg',
  'image/pjpeg',
  'image/gif',
  'image/svg+xml',
  'image/bmp',
  'image/x-icon',
  'image/vnd.microsoft.icon',
]);

/** Whether a `type` attribute (parameters ignored) names an image type the browser can show; absent means yes. */
export function isSupportedImageType(type: string | undefined): boolean {
  if (type === undefined) return true;
  const essence = normalizeKeyword(type.split(';')[0]);
  return essence === '' || SUPPORTED_IMAGE_TYPES.has(essence);
}
