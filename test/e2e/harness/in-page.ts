/**
 * The few browser globals the e2e suites touch inside `page.evaluate` callbacks. The test tree
 * compiles without the DOM lib (it would leak DOM globals into the Node-side type-check), so the
 * callbacks cast `globalThis` to this. Types only: callbacks are serialised into the page, so
 * they can import nothing at run time.
 */
export interface InPage {
  location: { href: string };
  document: {
    readyState: string;
    querySelector(selector: string): InPageElement | null;
    querySelectorAll(selector: string): ArrayLike<InPageElement>;
  };
  fetch(url: string): Promise<{ text(): Promise<string> }>;
  performance: {
    getEntriesByName(name: string, type?: string): ArrayLike<{ startTime: number }>;
    getEntriesByType(type: string): ArrayLike<{ name: string; startTime: number; responseStart: number }>;
  };
  browser?: InPageExtensionApi;
  chrome?: InPageExtensionApi;
}

export interface InPageElement {
  textContent: string | null;
  getAttribute(name: string): string | null;
}

/** `chrome.*` in Chromium (promise-returning in MV3) and `browser.*` in Firefox. */
export interface InPageExtensionApi {
  runtime: { sendMessage(message: unknown): Promise<unknown> };
  tabs: { query(filter: object): Promise<{ id?: number; url?: string }[]> };
  permissions: { contains(p: object): Promise<boolean> };
  storage: { local: { get(key: string): Promise<Record<string, unknown>> } };
}
