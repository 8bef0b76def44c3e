/**
 * The main content script (`content.js`, ≈46 KB: classification, style scan, reports) is injected
 * by the background when the top frame's load has completed (`webNavigation.onCompleted`), not
 * declared in the manifest. Declared at `document_idle`, Chromium ran it between DOMContentLoaded
 * and `load` on a short page, so the page's load waited for its parse and first run
 * (bench/overhead/main.ts, session 20). In Detailed capture, `content-start.js` at `document_start`
 * (early-records.ts, registered by early-recorder.ts) sees the load as it happens — the mutation
 * records and Resource Timing entries with their times — and `content.js` takes its records over in
 * the same isolated world. In lean capture nothing runs before `load`: `content.js` starts the same
 * observers then, and discovery times come from the browser's own request starts.
 *
 * Invariant: one injection per top-level document (Chromium: addressed by `documentId`, so a tab
 * that navigated meanwhile does not get it in its next document; content.js also ignores a second run).
 */
export const MAIN_CONTENT_FILE = 'content.js';

export interface LoadCompleted {
  tabId: number;
  frameId: number;
  url: string;
  /** Chromium only. */
  documentId?: string;
}

export interface InjectionTarget {
  tabId: number;
  frameIds?: number[];
  documentIds?: string[];
}

export interface ContentInjectionDeps {
  onCompleted(listener: (details: LoadCompleted) => void): void;
  executeScript(injection: { target: InjectionTarget; files: string[] }): Promise<unknown>;
}

export function injectMainContentAfterLoad(deps: ContentInjectionDeps): void {
  deps.onCompleted((e) => {
    if (e.frameId !== 0 || !/^https?:/.test(e.url)) return;
    const target: InjectionTarget = e.documentId ? { tabId: e.tabId, documentIds: [e.documentId] } : { tabId: e.tabId, frameIds: [0] };
    // Expected failures: the tab closed or navigated, an error page, a host the user has not granted (Firefox).
    deps.executeScript({ target, files: [MAIN_CONTENT_FILE] }).catch(() => undefined);
  });
}
