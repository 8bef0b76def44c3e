import { browser, type Runtime } from '../platform/browser-api';
import { createMessageRouter } from './message-router';
import { NativePort, type NativePortLike } from './native-port';
import { PageActions } from './page-actions';
import { BrowserHandshakeRecorder } from './browser-handshake-recorder';
import { listenToPages } from './page-events';
import { createNavigationHub } from './navigation-hub';
import { PageStore } from './page-store';
import { SettingsStore } from './settings-store';
import { createUiHandlers } from './ui-handlers';
import { HintsService, type DnrLike } from './hints-service';
import { SuggestionsStore } from './suggestions-store';
import { HostFillIn } from './host-fill-in';
import { HINTS_OFF, STORAGE_OFF, CONTENT_OFF } from '../platform/bench-switches';
import { CHROMIUM_HINT_LIMITS, FIREFOX_HINT_LIMITS } from '../../src/page/hints/hint-types';
import { captureModeOf, detailedPermissions, isFirefox } from '../platform/detailed-capture';
import { reloadOnCaptureChange } from './capture-reload';
import { injectMainContentAfterLoad } from './content-injection';
import { pushHintsOnCommit } from './hint-push';
import { syncEarlyRecorder } from './early-recorder';
import { SITE_ORIGINS } from '../../src/page/model/site-rules';
import { SpeculationService } from './speculation-service';
import { wireSpeculation } from './speculation-wiring';

/**
 * The background (Chrome: service worker; Firefox: event page): the composition root. Everything
 * is wired here and every listener is added synchronously on start-up.
 */
/** Session rules that do nothing: where DNR is missing, and in a bench build with hints off. */
const NO_RULES: DnrLike = { getSessionRules: () => Promise.resolve([]), updateSessionRules: () => Promise.resolve() };

/** Set before a reload a grant caused: the reloaded background reopens the options page (a reload closes it). */
const REOPEN_OPTIONS_KEY = 'getlist.capture.reopenOptions';

// Lean (the default) or Detailed capture, from whether webRequest is granted: decided once, here,
// because the listeners below must be added in this first turn (each record still says what it
// got: page-record.ts `capture`).
const capture = captureModeOf(browser);
const extensionBaseUrl = browser.runtime.getURL('');
// A bench build with storage off (bench/overhead/ --variants) reads but never writes.
const store = new PageStore(STORAGE_OFF ? { get: (key: string) => browser.storage.session.get(key), set: () => Promise.resolve() } : browser.storage.session);
const settings = new SettingsStore(browser.storage.local, (listener) =>
  browser.storage.onChanged.addListener((changes, area) => {
    if (area === 'local') listener(changes);
  }),
);
const port = new NativePort({
  connectNative: (name) => browser.runtime.connectNative(name) as unknown as NativePortLike,
  lastErrorMessage: () => browser.runtime.lastError?.message,
});
const recorder = new BrowserHandshakeRecorder({ store, port, settings, isIncognito: (tabId) => browser.tabs.get(tabId).then((tab) => tab.incognito, () => undefined) });
const actions = new PageActions({ store, port, settings, recorder });
const suggestions = new SuggestionsStore(browser.storage.local);
const hints = new HintsService({
  local: browser.storage.local,
  applied: (url, limits) => suggestions.hints(url, limits),
  appliedPages: (limits) => suggestions.hintsByPage(limits),
  // DNR `Link` headers need Detailed capture's permission (Chromium only); otherwise the document_start
  // content script inserts `<link>` elements (forDocument).
  dnr: HINTS_OFF || !browser.declarativeNetRequest ? NO_RULES : browser.declarativeNetRequest,
  mechanism: browser.declarativeNetRequest && !HINTS_OFF ? 'link-header' : 'content-script',
  store,
  settings,
  session: browser.storage.session,
  // After a visit is learned, the host fills in what the page's own timeline hides (host-fill-in.ts).
  onLearned: (page) => void fillIn.visitLearned(page),
  isIncognito: (tabId) => browser.tabs.get(tabId).then((tab) => tab.incognito, () => undefined),
  // Firefox's extension pages are moz-extension:; Chromium holds first paint for preloaded fonts.
  limits: isFirefox(extensionBaseUrl) ? FIREFOX_HINT_LIMITS : CHROMIUM_HINT_LIMITS,
});
const fillIn = new HostFillIn({ port, hints, settings });
const speculation = new SpeculationService({
  local: browser.storage.local,
  settings,
  capture,
  isIncognito: (tabId) => browser.tabs.get(tabId).then((tab) => tab.incognito, () => undefined),
});
const handlers = createUiHandlers({
  store,
  speculation,
  port,
  settings,
  actions,
  hints,
  suggestions,
  tabUrl: (tabId) => browser.tabs.get(tabId).then((tab) => tab.url ?? tab.pendingUrl ?? '', () => undefined),
});

// One onCommitted and one onCompleted listener, shared (navigation-hub.ts).
const navigation = createNavigationHub(browser.webNavigation);
listenToPages(store, actions, navigation, hints, capture, (url, headers) => speculation.documentHeaders(url, headers));
browser.tabs.onRemoved.addListener((tabId) => speculation.tabRemoved(tabId));
// The next page before the click: follows learned at commit, content-speculate.js after load (speculation-wiring.ts).
if (!CONTENT_OFF) {
  wireSpeculation({
    navigation,
    service: speculation,
    executeScript: (injection) => browser.scripting.executeScript(injection),
    warn: (message) => console.debug(`getlist: ${message}`),
  });
}
// Lean capture's hints, pushed at commit into pages that have a learned list (hint-push.ts).
if (!HINTS_OFF && !CONTENT_OFF) {
  pushHintsOnCommit({
    onCommitted: navigation.onCommitted,
    hintsFor: (tabId, url) => hints.forDocument(tabId, url),
    executeScript: (injection) => browser.scripting.executeScript(injection),
    ...(isFirefox(extensionBaseUrl) ? {} : { world: 'MAIN' as const }),
    warn: (message) => console.debug(`getlist: ${message}`),
  });
}
// content.js after the page's load (content-injection.ts); bench builds without content scripts skip it.
if (!CONTENT_OFF) {
  injectMainContentAfterLoad({
    onCompleted: navigation.onCompleted,
    executeScript: (injection) => browser.scripting.executeScript(injection),
  });
}
// The document_start recorder: registered in Detailed capture only (early-recorder.ts says why).
if (!CONTENT_OFF) {
  void syncEarlyRecorder(browser.scripting, capture, SITE_ORIGINS).catch((err: unknown) => console.warn(`getlist: early recorder not synced: ${String(err)}`));
}
// Firefox: a grant or revocation reloads the extension so its listeners match. Chromium: a reload
// does not change its request proxy (detailed-capture.ts); the change applies when Chromium restarts.
if (isFirefox(extensionBaseUrl)) {
  reloadOnCaptureChange({
    mode: capture,
    needed: detailedPermissions(extensionBaseUrl),
    permissions: browser.permissions,
    beforeReload: () => browser.storage.local.set({ [REOPEN_OPTIONS_KEY]: true }),
    reload: () => browser.runtime.reload(),
  });
}
void browser.storage.local.get(REOPEN_OPTIONS_KEY).then(async (items) => {
  if (items[REOPEN_OPTIONS_KEY] !== true) return;
  await browser.storage.local.remove(REOPEN_OPTIONS_KEY);
  await browser.runtime.openOptionsPage();
}).catch(() => undefined);
// A listener here makes the browser start the background with itself, so the session rules (gone
// with the last session) are rebuilt before the first navigation rather than woken by it.
browser.runtime.onStartup.addListener(() => void hints.syncRules());

const route = createMessageRouter({
  extensionId: browser.runtime.id,
  extensionBaseUrl,
  store,
  handlers,
  speculation,
});
browser.runtime.onMessage.addListener((message: unknown, sender: Runtime.MessageSender) => route(message, sender));
