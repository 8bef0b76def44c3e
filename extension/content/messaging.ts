import type { ContentMessage } from '../../src/page/messages/messages';
import { isContextGoneError } from '../platform/context-errors';
import { contentRuntime } from '../platform/content-runtime';

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
    const runtime = contentRuntime();
    if (!runtime) {
      gone = true;
      return;
    }
    runtime.sendMessage(message).catch(onError);
  } catch (e) {
    onError(e);
  }
}

function onError(e: unknown): void {
  const text = e instanceof Error ? e.message : String(e);
  if (text.includes('Extension context invalidated')) gone = true;
  if (!isContextGoneError(e)) console.debug('getlist: sendMessage failed:', text);
}
