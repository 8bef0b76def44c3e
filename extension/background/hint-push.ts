/**
 * Lean capture's hints reach a page by push: on the top frame's commit (`webNavigation.onCommitted`)
 * the background looks up the page's learned list in memory (HintsService.forDocument) and, only
 * when there is one, injects it with `scripting.executeScript({ injectImmediately: true })` into
 * that document (extension/content/hint-links.ts). A page without learned hints runs nothing for
 * them: no script, no message, no storage read.
 *
 * Chosen over a document_start script registered per hinted host
 * (`scripting.registerContentScripts`, asking the background by message): the push puts the
 * `<link>` elements in the page no later, at the same page script time, and runs nothing on a
 * hinted host's pages that have no list, where the registered script runs and messages on every
 * one (measured: docs/extension.md, "How the hints reach the page"). Both are later than DNR's
 * `Link` header (Detailed capture), which acts at the response headers.
 * `scripting` adds no request proxy (unlike webRequest/DNR, detailed-capture.ts).
 *
 * In Chromium the links are inserted from the page's main world (`world: 'MAIN'`): Chromium gives
 * what an extension's isolated world starts no Resource Timing entry (a preloaded font inserted
 * from the isolated world is fetched, once, and used, and the page's Resource Timing never lists
 * it), so a lean record would lose every hinted request — its bytes, the outcome's "fetched" (a
 * used font would read "never fetched"), the second fetch of a preload the page did not match, and
 * what the hinted visit taught. From the main world the page lists them as it
 * lists its own (test/e2e/hints-paint.test.ts). The function only creates `<link>` elements with
 * the list's URLs, which the page could read from the DOM either way. Firefox lists what its
 * content scripts insert and keeps the extension's world.
 *
 * Invariant: one push per committed top-level document, addressed by `documentId` where the
 * browser gives one (Chromium); elsewhere by frame, and the injected function checks the URL.
 */
import type { ContentHintsReply } from '../../src/page/messages/messages';
import type { HintList } from '../../src/page/hints/hint-types';
import { insertHintLinks } from '../content/hint-links';
import type { InjectionTarget, LoadCompleted } from './content-injection';

export interface HintPushDeps {
  onCommitted(listener: (details: LoadCompleted) => void): void;
  hintsFor(tabId: number, url: string): Promise<ContentHintsReply>;
  executeScript(injection: { target: InjectionTarget; func: (list: HintList, url: string) => number; args: [HintList, string]; injectImmediately: true; world?: 'MAIN' }): Promise<unknown>;
  /** The world the links are inserted from (Chromium: `MAIN`; see below). */
  world?: 'MAIN';
  warn?: (message: string) => void;
}

export function pushHintsOnCommit(deps: HintPushDeps): void {
  deps.onCommitted((e) => {
    if (e.frameId !== 0 || !/^https?:/.test(e.url)) return;
    const target: InjectionTarget = e.documentId ? { tabId: e.tabId, documentIds: [e.documentId] } : { tabId: e.tabId, frameIds: [0] };
    void deps
      .hintsFor(e.tabId, e.url)
      .then((reply) => (reply.list ? deps.executeScript({ target, func: insertHintLinks, args: [reply.list, e.url], injectImmediately: true, ...(deps.world ? { world: deps.world } : {}) }) : undefined))
      // Expected: the tab closed or navigated on, an error page, a host the user has not granted (Firefox).
      .catch((err: unknown) => deps.warn?.(`hints not pushed: ${String(err)}`));
  });
}
