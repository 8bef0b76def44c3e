/**
 * The extension's one door to the WebExtension API (docs/architecture.md, "Conventions": one adapter per platform): the only
 * module that imports webextension-polyfill, so Chrome's `chrome.*` callbacks and Firefox's
 * `browser.*` promises look the same to everything else. ESLint forbids the import elsewhere.
 */
export { default as browser } from 'webextension-polyfill';
export type { Events, Runtime, Storage, Tabs, WebNavigation, WebRequest } from 'webextension-polyfill';
