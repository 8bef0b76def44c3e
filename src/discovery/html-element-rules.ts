import { normalizeKeyword } from './ascii';

// What HTML says about particular elements, as the scanner needs it: which hide their content,
// which still honour `background`, which give `<source>` its meaning, which types apply.

/**
 * Elements whose content a scripting-enabled browser never turns into fetches: `<template>`
 * content is inert, and `<noscript>`, `<iframe>`, `<noembed>`, `<noframes>` content is raw text.
 * htmlparser2 parses their content as markup, so the scanner ignores everything inside them (and
 * keeps it out of the DOM that style rules are matched against).
 */
export const INERT_CONTENT: ReadonlySet<string> = new Set(['template', 'noscript', 'iframe', 'noembed', 'noframes']);

/** Elements whose `background` attribute a browser still honours (HTML §15.3.3). */
export const LEGACY_BACKGROUND: ReadonlySet<string> = new Set(['body', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th']);

/** Elements that give `<source>` its meaning. */
export type MediaContainer = 'picture' | 'video' | 'audio';

export function isMediaContainer(tag: string): tag is MediaContainer {
  return tag === 'picture' || tag === 'video' || tag === 'audio';
}

/** `<style type>`: absent, empty or `text/css` is CSS; anything else is not applied. */
export function isCssType(type: string | undefined): boolean {
  const t = normalizeKeyword(type);
  return t === '' || t === 'text/css';
}

/** `<source type>` of audio/video a browser would try: absent, or a common audio/video type. */
export function isPlayableType(type: string | undefined): boolean {
  const t = normalizeKeyword(type?.split(';')[0]);
  return t === '' || /^(video|audio)\/(mp4|webm|ogg|mpeg|mp3|wav|aac|flac|x-m4a|quicktime)$/.test(t);
}
