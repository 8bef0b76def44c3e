/**
 * The popup: the active tab's page (or `?tabId=N`), its timings, the host's handshakes, a
 * waterfall, replay and exports. Every state — no page, restricted page, host missing, background
 * gone — renders something; nothing throws.
 */
import { buildHar } from '../../src/page/views/har';
import type { HostStatus, UiResponse } from '../../src/page/messages/messages';
import type { PageRecord } from '../../src/page/model/page-record';
import { browser } from '../platform/browser-api';
import { h, offerDownload } from '../ui/dom';
import { showSiteAccess } from '../ui/grant-access';
import { hostMissingBlock, hostUnavailable } from '../ui/host-missing';
import { storeHealthBlock } from '../ui/store-health';
import { ask } from '../ui/ui-client';
import type { HintsView } from '../../src/page/messages/messages';
import { hintsBlock } from './hints-block';
import { speculationBlock } from './speculation-block';
import type { SpeculationView } from '../../src/page/speculation/speculation-types';
import { handshakesBlock, hostOf, metricsBlock } from './page-blocks';
import { leanCaptureNote } from './observed-metrics';
import { PRIVACY_NOTE, replayContradictions, replayFailures, replayStatus, replayTable } from './replay-block';
import { unrequestedBlock } from './unrequested-block';
import { applyTheme, themeToggle } from '../ui/theme';
import { waterfallBlock } from '../waterfall/waterfall-block';
import { timeWentBlock } from './time-went-block';

/** The popup's waterfall: readable at 420×600; larger pages go to the full view. */
const WATERFALL = { height: 280, labelWidth: 150 } as const;
const REPLAY_POLL_MS = 500;
/** Give up polling a replay after this long (the host bounds a replay's run time well below it). */
const REPLAY_POLL_LIMIT_MS = 5 * 60_000;
/** Polls without any replay state before giving up (the background never recorded one). */
const UNSTARTED_POLLS = 10;
/** While the page is still loading, refresh this often (only re-rendering when something changed). */
const REFRESH_MS = 1000;
const REFRESH_LIMIT_MS = 60_000;

type GetPage = Extract<UiResponse, { type: 'get-page' }>;

const app = document.getElementById('app') as HTMLElement;
const access = document.getElementById('access') as HTMLElement;
let tabId: number | undefined;
let lastJson = '';
let polling = false;
/** The tab's hints view, fetched with each page refresh (null: the background could not say). */
let hints: HintsView | null = null;
/** The tab's speculation view, fetched with each page refresh (null: the background could not say). */
let speculation: SpeculationView | null = null;

async function main(): Promise<void> {
  applyTheme();
  document.getElementById('toolbar')?.append(themeToggle());
  // Once granted, the background drops the empty records of pages it could not see: refresh.
  void showSiteAccess(access, browser.permissions, () => tabId !== undefined && void refresh());
  tabId = await resolveTabId();
  if (tabId === undefined) {
    show(emptyState('No tab to show: open this from a tab’s toolbar button.'));
    return;
  }
  const first = await refresh();
  const started = Date.now();
  if (first?.page?.replay?.status === 'running') void pollReplay();
  // Keep up with a page that is still loading.
  const timer = setInterval(async () => {
    const done = !first || Date.now() - started > REFRESH_LIMIT_MS;
    const r = polling ? undefined : await refresh();
    if (done || (r && r.page && r.page.loadAt !== undefined && r.page.timings.length > 0 && r.page.measured)) clearInterval(timer);
  }, REFRESH_MS);
}

async function resolveTabId(): Promise<number | undefined> {
  const param = new URLSearchParams(location.search).get('tabId');
  if (param !== null && /^\d+$/.test(param)) return Number(param);
  try {
    const [tab] = await browser.tabs.query({ active: true, currentWindow: true });
    return tab?.id;
  } catch {
    return undefined;
  }
}

/** Fetches the page and re-renders when it changed. Returns the reply (undefined on error). */
async function refresh(): Promise<GetPage | undefined> {
  const [reply, hintsReply, speculationReply] = await Promise.all([ask({ type: 'get-page', tabId: tabId as number }), ask({ type: 'get-hints', tabId: tabId as number }), ask({ type: 'get-speculation', tabId: tabId as number })]);
  hints = hintsReply.type === 'get-hints' ? hintsReply.hints : null;
  speculation = speculationReply.type === 'get-speculation' ? speculationReply.speculation : null;
  if (reply.type === 'error') {
    render(undefined, reply);
    return undefined;
  }
  render(reply);
  return reply;
}

function render(reply: GetPage | undefined, error?: { code: string; message: string }): void {
  const json = JSON.stringify([reply ?? error, hints, speculation]);
  if (json === lastJson) return;
  lastJson = json;
  if (!reply) {
    show(emptyState(`getlist’s background did not answer: ${error?.message ?? 'unknown error'}${error ? ` (${error.code})` : ''}`));
    return;
  }
  const hostBlock = hostUnavailable(reply.hostStatus) ? hostMissingBlock(reply.hostStatus) : storeHealthBlock(reply.hostStatus.store);
  if (reply.restricted) {
    show(hostBlock, emptyState('getlist cannot observe this page (browser pages, add-on stores and getlist’s own pages are off limits).'));
    return;
  }
  if (!reply.page) {
    show(hostBlock, emptyState('Load a page in this tab to see its connections, timings and handshakes.'));
    return;
  }
  show(hostBlock, ...pageView(reply.page, reply.hostStatus));
}

function pageView(page: PageRecord, hostStatus: HostStatus): Node[] {
  const exports = h('div', { class: 'links' });
  const harButton = h('button', { type: 'button', 'data-testid': 'export-har' }, 'Export HAR');
  harButton.addEventListener('click', async () => {
    const title = await browser.tabs.get(page.tabId).then((t) => t.title, () => undefined);
    offerDownload(exports, 'har-link', `getlist-${safeName(hostOf(page.url))}.har`, JSON.stringify(buildHar(page, { title }), null, 2), 'application/json');
  });
  const statsButton = (format: 'csv' | 'json', label: string) => {
    const b = h('button', { type: 'button', 'data-testid': `export-${format}` }, label);
    b.addEventListener('click', async () => {
      b.disabled = true;
      const reply = await ask({ type: 'export', format });
      b.disabled = false;
      if (reply.type === 'error') exports.append(h('p', { class: 'error-text' }, `Export failed: ${reply.message} (${reply.code})`));
      else offerDownload(exports, 'stats-link', `getlist-handshakes.${format}`, reply.data, reply.mimeType);
    });
    return b;
  };

  const hostOk = !hostUnavailable(hostStatus);
  const replayButton = h('button', { type: 'button', 'data-testid': 'replay-button', class: 'primary', disabled: !hostOk || page.excluded === true || page.replay?.status === 'running' }, 'Replay this page');
  const status = h('p', { class: 'replay-status', 'data-testid': 'replay-status', 'aria-live': 'polite' }, replayStatus(page) ?? '');
  replayButton.addEventListener('click', async () => {
    replayButton.disabled = true;
    status.textContent = 'Starting replay…';
    const reply = await ask({ type: 'run-replay', tabId: page.tabId });
    if (reply.type === 'error' || !reply.started) {
      status.textContent = reply.type === 'error' ? `Replay could not start: ${reply.message} (${reply.code})` : 'Replay could not start.';
      status.classList.add('error-text');
      replayButton.disabled = false;
      return;
    }
    await pollReplay();
  });

  return [
    h('header', {}, h('p', { class: 'page-url', 'data-testid': 'page-url', title: page.url }, page.url)),
    page.excluded ? h('p', { class: 'note' }, 'This site is in your excluded list: it is neither measured nor replayed.') : null,
    metricsBlock(page),
    leanCaptureNote(page),
    hints ? hintsBlock(hints, () => void refresh()) : null,
    speculation ? speculationBlock(speculation, () => void refresh()) : null,
    handshakesBlock(page),
    timeWentBlock(page),
    waterfallBlock(page, { ...WATERFALL, onOpenFull: () => void openFullWaterfall(page.tabId) }),
    h(
      'section',
      { class: 'block' },
      h('h2', {}, 'Replay: what a smarter connection policy would take'),
      h('p', { class: 'privacy', 'data-testid': 'privacy-note' }, PRIVACY_NOTE),
      h('div', { class: 'row' }, replayButton),
      status,
      replayTable(page),
      replayFailures(page),
      replayContradictions(page),
    ),
    unrequestedBlock(page),
    h('section', { class: 'block' }, h('h2', {}, 'Export'), h('div', { class: 'row' }, harButton, statsButton('csv', 'Stats CSV'), statsButton('json', 'Stats JSON')), exports),
  ].filter((n): n is HTMLElement => n !== null);
}

/** Polls `get-page` until the replay is done or failed, re-rendering as results arrive. */
async function pollReplay(): Promise<void> {
  if (polling) return;
  polling = true;
  lastJson = ''; // the next reply re-renders even if unchanged, replacing the "Starting…" line
  const started = Date.now();
  try {
    for (let polls = 1; Date.now() - started < REPLAY_POLL_LIMIT_MS; polls++) {
      await new Promise((r) => setTimeout(r, REPLAY_POLL_MS));
      const reply = await refresh();
      const state = reply?.page?.replay?.status;
      if (!reply || state === 'done' || state === 'error') return;
      // The background may record the replay a moment after saying it started.
      if (state === undefined && polls >= UNSTARTED_POLLS) return;
    }
  } finally {
    polling = false;
  }
}

/** The full-page waterfall for the tab, next to the current tab. */
async function openFullWaterfall(forTab: number): Promise<void> {
  await browser.tabs.create({ url: browser.runtime.getURL(`waterfall.html?tabId=${forTab}`) });
}

function emptyState(text: string): HTMLElement {
  return h('p', { class: 'empty-state', 'data-testid': 'empty-state' }, text);
}

function show(...nodes: Array<Node | null>): void {
  app.replaceChildren(...nodes.filter((n): n is Node => n !== null));
}

function safeName(host: string): string {
  return host.replace(/[^a-z0-9.-]/gi, '_') || 'page';
}

main().catch((e: unknown) => show(emptyState(`getlist popup error: ${e instanceof Error ? e.message : String(e)}`)));
