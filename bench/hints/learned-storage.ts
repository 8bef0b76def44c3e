/**
 * Reading the extension's learned state from a bench's browser: the expressions evaluated in the
 * extension (its service worker in Chromium, one of its pages in Firefox) and the state they give,
 * in the whole-state form the tables read (learned-state-json.ts). The extension keeps an item per
 * learned key (src/page/hints/learned-state-items.ts).
 */
import { learnedItemKey, learnedStateFromItems } from '../../src/page/hints/learned-state-items';
import { learnedStateToJson, type StoredLearnedState } from '../../src/page/hints/learned-state-json';

/** The WebExtension namespace the expression runs against: `chrome` in Chromium, `browser` in Firefox. */
export type ExtensionApi = 'chrome' | 'browser';

/** How many visits of `url` (its page key) the extension has stored. */
export function storedVisitsExpression(api: ExtensionApi, url: string): string {
  const item = JSON.stringify(learnedItemKey(url));
  return `${api}.storage.local.get(${item}).then((x) => x[${item}]?.visits?.length ?? 0)`;
}

/** Every item of the extension's `storage.local`. */
export function storageItemsExpression(api: ExtensionApi): string {
  return `${api}.storage.local.get(null)`;
}

/** The learned state those items hold; undefined when the evaluation gave no object. */
export function storedLearnedState(items: unknown): StoredLearnedState | undefined {
  if (typeof items !== 'object' || items === null) return undefined;
  return learnedStateToJson(learnedStateFromItems(items as Record<string, unknown>));
}
