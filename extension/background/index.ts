import { browser, type Runtime } from '../platform/browser-api';
import { createMessageRouter } from './message-router';
import { NativePort, type NativePortLike } from './native-port';
import { PageActions } from './page-actions';
import { listenToPages } from './page-events';
import { PageStore } from './page-store';
import { SettingsStore } from './settings-store';
import { createUiHandlers } from './ui-handlers';
import { HintsService, type DnrLike } from './hints-service';
import { benchOff } from '../platform/bench-switches';
import { CHROMIUM_HINT_LIMITS, DEFAULT_HINT_LIMITS } from '../../src/hints/hint-types';

/**
 * The background (Chrome: service worker; Firefox: event page): the composition root. Everything
 * is wired here and every listener is added synchronously on start-up.
 */
/** Bench-only builds (bench/overhead.ts --variants) replace a switched-off piece with one that does nothing. */
const NO_WRITES = { get: (key: string) => browser.storage.session.get(key), set: () => Promise.resolve() };
const NO_RULES: DnrLike = { getSessionRules: () => Promise.resolve([]), updateSessionRules: () => Promise.resolve() };

const store = new PageStore(benchOff('storage') ? NO_WRITES : browser.storage.session);
const settings = new SettingsStore(browser.storage.local);
const port = new NativePort({
  connectNative: (name) => browser.runtime.connectNative(name) as unknown as NativePortLike,
  lastErrorMessage: () => browser.runtime.lastError?.message,
});
const actions = new PageActions({ store, port, settings });
const hints = new HintsService({
  local: browser.storage.local,
  dnr: benchOff('hints') ? NO_RULES : browser.declarativeNetRequest,
  store,
  settings,
  isIncognito: (tabId) => browser.tabs.get(tabId).then((tab) => tab.incognito, () => undefined),
  // Firefox's extension pages are moz-extension:; Chromium holds first paint for preloaded fonts.
  limits: browser.runtime.getURL('').startsWith('moz-extension:') ? DEFAULT_HINT_LIMITS : CHROMIUM_HINT_LIMITS,
});
const handlers = createUiHandlers({
  store,
  port,
  settings,
  actions,
  hints,
  tabUrl: (tabId) => browser.tabs.get(tabId).then((tab) => tab.url ?? tab.pendingUrl ?? '', () => undefined),
});

listenToPages(store, actions, hints);
// A listener here makes the browser start the background with itself, so the session rules (gone
// with the last session) are rebuilt before the first navigation rather than woken by it.
browser.runtime.onStartup.addListener(() => void hints.syncRules());

const route = createMessageRouter({
  extensionId: browser.runtime.id,
  extensionBaseUrl: browser.runtime.getURL(''),
  store,
  handlers,
});
browser.runtime.onMessage.addListener((message: unknown, sender: Runtime.MessageSender) => route(message, sender));
