import type { PageRecord } from '../../src/page/model/page-record';
import { buildRequestList } from '../../src/page/model/request-list';
import { buildReplayList } from '../../src/page/model/replay-list';
import { parseStrategies } from '../../src/page/messages/settings';
import { isExcludedSite, isHttpUrl, withoutFragment } from '../../src/page/model/site-rules';
import { CodedError, isCodedError } from '../../src/core/coded-error';
import { RUN_TIMEOUT_MS } from '../../src/protocol/run-limits';
import type { StrategyName } from '../../src/scheduler/strategies';
import type { BrowserHandshakeRecorder } from './browser-handshake-recorder';
import type { HostPort } from './native-port';
import type { PageStore } from './page-store';
import type { SettingsStore } from './settings-store';

/** How long after `load` the page is measured, so requests started by load handlers are listed. */
export const SETTLE_MS = 500;
/** `measure` opens at most one connection per origin; a minute covers slow handshakes. */
const MEASURE_TIMEOUT_MS = 60_000;
/**
 * Beyond the host's limit for one strategy (`RUN_TIMEOUT_MS`): the host's own work around each
 * run, which the limit does not bound. Before it, the private-network DNS check and reading origin
 * memory from the store; after the cut, closing that strategy's connections, building its records
 * and sending them, as several 1 MiB chunks for a long list. Waiting only the limit would report a
 * replay that finished as timed out.
 */
const REPLAY_REPORT_MARGIN_MS = 30_000;
/** How long a replay may take per strategy before the extension stops waiting for the host. */
const REPLAY_MS_PER_STRATEGY = RUN_TIMEOUT_MS + REPLAY_REPORT_MARGIN_MS;

export class ActionError extends CodedError<'E_NO_PAGE' | 'E_EXCLUDED'> {
  override readonly name = 'ActionError';
}

export interface PageActionsDeps {
  store: PageStore;
  port: HostPort;
  settings: SettingsStore;
  /** Records the browser's own connections of each loaded page (browser-handshake-recorder.ts). */
  recorder?: Pick<BrowserHandshakeRecorder, 'pageLoaded' | 'tabClosed'>;
  now?: () => number;
  setTimeout?: (fn: () => void, ms: number) => unknown;
}

/** What the background does with a loaded page: measure it, and replay it when asked (or always, by setting). */
export class PageActions {
  private readonly now: () => number;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;

  constructor(private readonly deps: PageActionsDeps) {
    this.now = deps.now ?? Date.now;
    this.setTimer = deps.setTimeout ?? ((fn, ms) => setTimeout(fn, ms));
  }

  /** Called on the top-level `load`: measures the page once late requests have settled. */
  pageLoaded(page: PageRecord): void {
    const { tabId, pageId } = page;
    this.setTimer(() => void this.measure(tabId, pageId), SETTLE_MS);
    this.deps.recorder?.pageLoaded(page);
  }

  /** tabs.onRemoved: what waits for the page's end happens now, before its record goes. */
  tabClosed(tabId: number): Promise<void> {
    return this.deps.recorder?.tabClosed(tabId) ?? Promise.resolve();
  }

  async measure(tabId: number, pageId: string): Promise<void> {
    const { store, port, settings } = this.deps;
    const page = await store.current(tabId, pageId);
    if (!page || !isHttpUrl(page.url) || page.measured) return;
    const current = await settings.get();
    if (isExcludedSite(page.url, current.excludedSites)) {
      page.excluded = true;
      store.changed();
      return;
    }
    try {
      page.measured = await port.request(
        { type: 'schedule', pageId, documentUrl: withoutFragment(page.url), requests: buildRequestList(page), mode: 'measure', allowPrivateNetwork: current.allowPrivateNetwork },
        { timeoutMs: MEASURE_TIMEOUT_MS },
      );
      delete page.hostError;
    } catch (err) {
      page.hostError = this.describe(err);
    }
    store.changed();
    if (current.autoReplay && !page.hostError) await this.replay(tabId).catch(() => undefined);
  }

  /**
   * Starts a replay of the tab's page; resolves once it started (false: one is already running).
   * Results stream into `page.replay` as each strategy finishes.
   * @throws ActionError `E_NO_PAGE`, `E_EXCLUDED`; SettingsError for unknown strategies.
   */
  async replay(tabId: number, strategies?: unknown): Promise<boolean> {
    const { store, port, settings } = this.deps;
    const page = await store.get(tabId);
    if (!page || !isHttpUrl(page.url)) throw new ActionError('E_NO_PAGE', `tab ${tabId} shows no http(s) page the extension saw load; reload the page and try again.`);
    const current = await settings.get();
    if (isExcludedSite(page.url, current.excludedSites)) throw new ActionError('E_EXCLUDED', `${new URL(page.url).hostname} is in your excluded sites; remove it in the options to replay it.`);
    if (page.replay?.status === 'running') return false;
    const names = parseStrategies(strategies ?? current.replayStrategies) as StrategyName[];
    const state: NonNullable<PageRecord['replay']> = { status: 'running', startedAt: this.now(), strategies: names, results: [] };
    page.replay = state;
    store.changed();
    void port
      .request(
        { type: 'schedule', pageId: page.pageId, documentUrl: withoutFragment(page.url), requests: buildReplayList(page), mode: 'replay', strategies: names, allowPrivateNetwork: current.allowPrivateNetwork, ...(current.caFile ? { caFile: current.caFile } : {}), ...(current.hostMappings.length > 0 ? { hostMappings: current.hostMappings } : {}) },
        {
          timeoutMs: names.length * REPLAY_MS_PER_STRATEGY,
          onProgress: (result) => {
            state.results.push(result);
            store.changed();
          },
        },
      )
      .then(
        (summary) => {
          state.summary = summary;
          state.status = 'done';
        },
        (err: unknown) => {
          state.status = 'error';
          state.error = this.describe(err);
        },
      )
      .finally(() => store.changed());
    return true;
  }

  /** An error for the record and the UI: the code, and a sentence with the fix when the host is missing. */
  describe(err: unknown): { code: string; message: string } {
    const code = isCodedError(err) ? err.code : 'E_INTERNAL';
    const status = this.deps.port.status;
    const message = err instanceof Error ? err.message : String(err);
    if (status.state === 'missing' || (code === 'E_HOST_DISCONNECTED' && status.fix)) {
      const fix = status.fix ?? 'getlist doctor';
      // A multi-line fix (the install steps) reads badly inlined; the popup shows it in full above.
      return { code, message: `${status.message ?? message} Fix: ${fix.includes('\n') ? 'the install steps shown at the top of the popup.' : fix}` };
    }
    return { code, message };
  }
}
