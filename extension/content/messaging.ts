import type { ContentMessage } from '../../src/extension-messages/messages';
import { browser } from '../platform/browser-api';

/** Errors that mean the extension went away (reloaded, updated, or no listener yet): not bugs. */
const GONE = ['Extension context invalidated', 'Receiving end does not exist', 'message port closed'];

let gone = false;

/** True once the extension context is invalidated: the content script should stop working. */
export function extensionGone(): boolean {
  return gone;
}

/**
 * Fire-and-forget send. A missing receiver or an invalidated context is expected (the background
 * restarts, the extension is reloaded under an open tab) and is swallowed here, in one place.
 */
export function send(message: ContentMessage): void {
  if (gone) return;
  try {
    browser.runtime.sendMessage(message).catch(onError);
  } catch (e) {
    onError(e);
  }
}

function onError(e: unknown): void {
  const text = e instanceof Error ? e.message : String(e);
  if (text.includes('Extension context invalidated')) gone = true;
  if (!GONE.some((g) => text.includes(g))) console.debug('getlist: sendMessage failed:', text);
}
