/**
 * The one browser API a content script needs, `runtime.sendMessage`, without the
 * webextension-polyfill: the polyfill wraps the whole `chrome` object when it loads, work every
 * page would pay at `document_start`. Both browsers' MV3 `runtime.sendMessage` return a promise
 * (Firefox's `browser.*`, Chrome's `chrome.*`), which is all the content script uses.
 */
interface RuntimeLike {
  sendMessage(message: unknown): Promise<unknown>;
}

interface ExtensionGlobals {
  browser?: { runtime?: RuntimeLike };
  chrome?: { runtime?: RuntimeLike };
}

export function contentRuntime(): RuntimeLike | undefined {
  const g = globalThis as unknown as ExtensionGlobals;
  return g.browser?.runtime ?? g.chrome?.runtime;
}
