/**
 * Speculation's events: each top-frame commit (with its transition: `link` is a followed link) goes
 * to the service, and each loaded top-level document where the page may speculate gets
 * `content-speculate.js` (extension/content/speculate.ts) after its load, as `content.js` does
 * (content-injection.ts): nothing runs in a page before `load`, and a page that may not speculate
 * (private window, excluded site, speculation off) gets no script at all.
 */
import type { InjectionTarget } from './content-injection';
import type { NavigationHub } from './navigation-hub';
import type { SpeculationService } from './speculation-service';

export const SPECULATION_FILE = 'content-speculate.js';

export interface SpeculationWiringDeps {
  navigation: NavigationHub;
  service: Pick<SpeculationService, 'committed' | 'mayInject'>;
  executeScript(injection: { target: InjectionTarget; files: string[] }): Promise<unknown>;
  warn?: (message: string) => void;
}

export function wireSpeculation(deps: SpeculationWiringDeps): void {
  deps.navigation.onCommitted((e) => {
    if (e.frameId !== 0) return;
    void deps.service.committed(e.tabId, e.url, e.transitionType).catch((err: unknown) => deps.warn?.(`speculation commit: ${String(err)}`));
  });
  deps.navigation.onCompleted((e) => {
    if (e.frameId !== 0 || !/^https?:/.test(e.url)) return;
    const target: InjectionTarget = e.documentId ? { tabId: e.tabId, documentIds: [e.documentId] } : { tabId: e.tabId, frameIds: [0] };
    void deps.service
      .mayInject(e.tabId, e.url)
      .then((may) => (may ? deps.executeScript({ target, files: [SPECULATION_FILE] }) : undefined))
      // Expected: the tab closed or navigated on, an error page, a host the user has not granted (Firefox).
      .catch(() => undefined);
  });
}
