import type { ResourceKind } from './types';

/** What a browser does with a subresource request from a secure document. */
export type MixedContentAction = 'allow' | 'upgrade' | 'block';

/**
 * Mixed Content Level 2: an `http:` subresource of an `https:` document is never fetched as is.
 * Images, audio and video ("upgradeable" content) are fetched over `https:` instead; everything
 * else (scripts, styles, fonts, frames, objects…) is blocked. Loopback hosts are potentially
 * trustworthy and so never mixed.
 */
export function mixedContentAction(documentUrl: string, url: string, kind: ResourceKind): MixedContentAction {
  if (!documentUrl.startsWith('https:') || !url.startsWith('http:')) return 'allow';
  const host = new URL(url).hostname;
  if (host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host)) return 'allow';
  return kind === 'image' || kind === 'media' ? 'upgrade' : 'block';
}

/** `http://x/y` → `https://x/y` (default port follows the scheme). */
export function upgradeToHttps(url: string): string {
  const u = new URL(url);
  u.protocol = 'https:';
  if (u.port === '80') u.port = '';
  return u.href;
}
