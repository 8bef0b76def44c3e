import type { HostStatus, UiRequest, UiResponse } from '../../src/page/messages/messages';
import { isHttpUrl } from '../../src/page/model/site-rules';
import type { HintsService } from './hints-service';
import type { SpeculationService } from './speculation-service';
import type { SuggestionsStore } from './suggestions-store';
import type { HostPort } from './native-port';
import type { PageActions } from './page-actions';
import type { PageStore } from './page-store';
import type { SettingsStore } from './settings-store';

type UiType = UiRequest['type'];
type RequestOf<T extends UiType> = Extract<UiRequest, { type: T }>;
type ResponseOf<T extends UiType> = Extract<UiResponse, { type: T }>;

/** One handler per UI request type (refined-github style): the compiler checks none is missing. */
export type UiHandlers = { [T in UiType]: (request: RequestOf<T>) => Promise<ResponseOf<T>> };

export interface UiHandlerDeps {
  store: PageStore;
  port: HostPort;
  settings: SettingsStore;
  actions: PageActions;
  /** Learned hints: forgotten with everything else, rules rebuilt when settings change. */
  hints?: Pick<HintsService, 'forget' | 'view' | 'syncRules'>;
  /** Speculation: its popup view, forgotten with everything else. */
  speculation?: Pick<SpeculationService, 'forget' | 'view'>;
  /** Suggestions the user applied from the popup: applied here, forgotten with everything else. */
  suggestions?: Pick<SuggestionsStore, 'apply' | 'forUrl' | 'forget'>;
  /** The tab's URL, or undefined when the tab does not exist. */
  tabUrl: (tabId: number) => Promise<string | undefined>;
  /** Times `get-page`'s wait for the host status. @default globalThis.setTimeout */
  setTimeout?: (fn: () => void, ms: number) => unknown;
}

/** How long `get-page` waits for a first `hello` before answering with the status as it is. */
const STATUS_WAIT_MS = 2000;
const STORE_TIMEOUT_MS = 30_000;

export function createUiHandlers(deps: UiHandlerDeps): UiHandlers {
  const { store, port, settings, actions } = deps;
  const setTimer = deps.setTimeout ?? ((fn, ms) => setTimeout(fn, ms));
  return {
    'get-page': async ({ tabId }) => {
      const [url, hostStatus] = await Promise.all([deps.tabUrl(tabId), hostStatusSoon(port, setTimer)]);
      const restricted = url !== undefined && !isHttpUrl(url);
      const page = restricted ? null : ((await store.get(tabId)) ?? null);
      return { type: 'get-page', page, restricted, hostStatus };
    },
    'run-replay': async ({ tabId, strategies }) => ({ type: 'run-replay', started: await actions.replay(tabId, strategies) }),
    'host-status': async () => ({ type: 'host-status', status: await port.checkStatus() }),
    stats: async ({ source, origin, since, until }) => {
      const reply = await port.request({ type: 'stats', source, origin, since, until }, { timeoutMs: STORE_TIMEOUT_MS });
      const { type: _type, id: _id, storeHealth, ...stats } = reply;
      return { type: 'stats', stats, ...(storeHealth ? { storeHealth } : {}) };
    },
    export: async ({ format, source, origin, since }) => {
      const reply = await port.request({ type: 'export', format, source, origin, since }, { timeoutMs: STORE_TIMEOUT_MS });
      return { type: 'export', format: reply.format, mimeType: reply.mimeType, data: reply.data };
    },
    forget: async (request) => {
      const origin = 'origin' in request ? request.origin : undefined;
      // The learned hints live in the browser, not the host: they go even when the host is missing.
      // The hint rules are rebuilt once the applied suggestions are gone too (they are in the rules).
      const hintsForgotten = Promise.all([deps.hints?.forget(origin), deps.speculation?.forget(origin), deps.suggestions?.forget(origin)]).then(() => deps.hints?.syncRules());
      const reply = port.request(origin === undefined ? { type: 'forget', all: true } : { type: 'forget', origin }, { timeoutMs: STORE_TIMEOUT_MS });
      const [, forgotten] = await Promise.all([hintsForgotten, reply]);
      return { type: 'forget', removed: forgotten.removed };
    },
    'get-settings': async () => ({ type: 'get-settings', settings: await settings.get() }),
    'set-settings': async (request) => {
      const saved = await settings.set(request.settings);
      await deps.hints?.syncRules();
      return { type: 'set-settings', settings: saved };
    },
    'get-hints': async ({ tabId }) => {
      if (!deps.hints) throw new Error('hints are not wired into the background');
      return { type: 'get-hints', hints: await deps.hints.view(tabId, await deps.tabUrl(tabId)) };
    },
    'apply-suggestion': async ({ tabId, href }) => {
      if (!deps.suggestions) throw new Error('suggestions are not wired into the background');
      const page = await store.get(tabId);
      const applied = (page && (await deps.suggestions.apply(page, href))) ?? null;
      // Detailed capture hints through `Link` header rules: they take the suggestion now.
      if (applied) await deps.hints?.syncRules();
      return { type: 'apply-suggestion', applied };
    },
    'get-suggestions': async ({ tabId }) => {
      if (!deps.suggestions) throw new Error('suggestions are not wired into the background');
      const url = await deps.tabUrl(tabId);
      return { type: 'get-suggestions', applied: url === undefined ? [] : await deps.suggestions.forUrl(url) };
    },
    'get-speculation': async ({ tabId }) => {
      if (!deps.speculation) throw new Error('speculation is not wired into the background');
      return { type: 'get-speculation', speculation: await deps.speculation.view(tabId, await deps.tabUrl(tabId)) };
    },
  };
}

function hostStatusSoon(port: HostPort, setTimer: (fn: () => void, ms: number) => unknown): Promise<HostStatus> {
  return Promise.race([port.checkStatus(), new Promise<HostStatus>((resolve) => setTimer(() => resolve(port.status), STATUS_WAIT_MS))]);
}
