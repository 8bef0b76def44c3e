/**
 * The errors the WebExtension API throws when the other end is gone, in one place (refined-github):
 * after the extension was reloaded or updated, an old content script or page gets "Extension
 * context invalidated"; a message sent while the background is starting or absent gets "Receiving
 * end does not exist" / "Could not establish connection"; Firefox says "… has been disconnected"
 * or "Message manager disconnected". These are not bugs: callers stop quietly or retry.
 */
const CONTEXT_GONE = /extension context invalidated|receiving end does not exist|could not establish connection|message manager disconnected|has been disconnected|message port closed/i;

export function isContextGoneError(err: unknown): boolean {
  const message = err instanceof Error ? err.message : typeof err === 'string' ? err : '';
  return CONTEXT_GONE.test(message);
}

export const CONTEXT_GONE_CODE = 'E_CONTEXT_GONE';
