/**
 * The options page: handshake-time CDFs from the host's store, settings, exports and "forget".
 * Host missing → the `host-missing` block; every failure is shown, nothing throws.
 */
import type { CdfSeries } from '../../src/page/views/cdf-plot';
import type { Settings } from '../../src/page/messages/messages';
import { STRATEGY_NAMES } from '../../src/scheduler/strategies';
import type { HandshakeStatsJSON, StatsGroupJSON } from '../../src/stats/handshake-stats';
import { isHandshakeSource, type HandshakeSource } from '../../src/stats/handshake';
import { browser } from '../platform/browser-api';
import { h, offerDownload } from '../ui/dom';
import { showSiteAccess } from '../ui/grant-access';
import { detailedCaptureCard } from '../ui/detailed-capture';
import { hostMissingBlock, hostUnavailable } from '../ui/host-missing';
import { storeHealthBlock } from '../ui/store-health';
import type { StoreHealth } from '../../src/protocol/store-health';
import { ask } from '../ui/ui-client';
import { cdfSvg } from './cdf-svg';

const DAY_MS = 24 * 60 * 60 * 1000;
const PHASES = ['dns', 'tcp', 'tls', 'total'] as const;

const $ = <T extends Element>(selector: string) => document.querySelector(selector) as T;
const controls = $<HTMLFormElement>('#plot-controls');
const plot = $<HTMLElement>('#plot');
const plotSummary = $<HTMLElement>('#plot-summary');
const exportLinks = $<HTMLElement>('#export-links');
const settingsForm = $<HTMLFormElement>('#settings');
const settingsStatus = $<HTMLElement>('#settings-status');
const forgetResult = $<HTMLElement>('#forget-result');
let knownOrigins = new Set<string>();

async function main(): Promise<void> {
  renderStrategies([]);
  void showSiteAccess($('#access'), browser.permissions);
  void detailedCaptureCard($('#capture'), browser.permissions, browser.runtime.getURL(''));
  const status = await ask({ type: 'host-status' });
  if (status.type === 'host-status' && hostUnavailable(status.status)) $('#host').replaceChildren(hostMissingBlock(status.status));
  else if (status.type === 'host-status') showStoreHealth(status.status.store);
  else if (status.type === 'error') $('#host').replaceChildren(h('p', { class: 'error-text' }, `Could not reach getlist’s background: ${status.message} (${status.code})`));

  controls.addEventListener('change', () => void loadStats());
  settingsForm.addEventListener('submit', (e) => {
    e.preventDefault();
    void saveSettings();
  });
  for (const format of ['csv', 'json', 'prom'] as const) {
    $<HTMLButtonElement>(`[data-testid="export-${format}"]`).addEventListener('click', () => void exportStats(format));
  }
  $<HTMLButtonElement>('[data-testid="forget-all"]').addEventListener('click', () => void forgetAll());
  await Promise.all([loadSettings(), loadStats()]);
}

/** The "store full: N records not saved" warning, kept current by each stats reply. */
function showStoreHealth(health: StoreHealth | undefined): void {
  const block = storeHealthBlock(health);
  const old = document.querySelector('[data-testid="store-health"]');
  if (block && old) old.replaceWith(block);
  else if (block) $('#host').append(block);
  else old?.remove();
}

/** The `source` / `since` / `origin` the controls select. */
function query(): { source?: HandshakeSource; origin?: string; since?: number } {
  const data = new FormData(controls);
  const origin = String(data.get('origin') ?? '');
  const source = String(data.get('source') ?? '');
  const range = String(data.get('range') ?? 'all');
  return { ...(isHandshakeSource(source) ? { source } : {}), ...(origin ? { origin } : {}), ...(range === 'all' ? {} : { since: Date.now() - Number(range) * DAY_MS }) };
}

async function loadStats(): Promise<void> {
  const reply = await ask({ type: 'stats', ...query() });
  if (reply.type === 'error') {
    plot.replaceChildren(cdfSvg([], logScale()));
    plotSummary.textContent = `No statistics: ${reply.message} (${reply.code})`;
    return;
  }
  if (reply.type === 'stats') showStoreHealth(reply.storeHealth);
  fillOrigins(reply.stats);
  const data = new FormData(controls);
  const phases = new Set(data.getAll('phase').map(String));
  const tls = String(data.get('tls') ?? 'all');
  const group = pickGroup(reply.stats, tls);
  const series: CdfSeries[] = PHASES.filter((p) => phases.has(p)).flatMap((p) => {
    const phase = group?.phases[p];
    return phase ? [{ name: p, points: phase.cdf }] : [];
  });
  const drawn = cdfSvg(series, logScale());
  const same = new Map([...drawn.querySelectorAll('path[data-same-as]')].map((el) => [el.getAttribute('data-phase') ?? '', el.getAttribute('data-same-as') ?? '']));
  plot.replaceChildren(drawn, legend(series, same), ...absentNotes(phases, group));
  plotSummary.textContent = group
    ? `${group.count} handshake${group.count === 1 ? '' : 's'}${bySource(reply.stats)}` +
      PHASES.filter((p) => phases.has(p) && group.phases[p]).map((p) => ` · ${p} p50 ${fmt(group.phases[p]?.p50)} ms, p90 ${fmt(group.phases[p]?.p90)} ms`).join('')
    : 'No handshakes recorded for this selection yet. Browse a few sites with the host installed.';
}

/** `all` → the `all` group; `full`/`resumed`/`unknown` → that TLS group (it only has tls and total). */
function pickGroup(stats: HandshakeStatsJSON, tls: string): StatsGroupJSON | undefined {
  return tls === 'full' || tls === 'resumed' || tls === 'unknown' ? stats.groups.find((g) => g.group === 'tls' && g.key === tls) : stats.groups.find((g) => g.group === 'all');
}

/** ` (browser 12, host 3)`: how many of the handshakes each source opened. */
function bySource(stats: HandshakeStatsJSON): string {
  const parts = stats.groups.filter((g) => g.group === 'source').map((g) => `${g.key} ${g.count}`);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

/** Origins only ever grow while the page is open, so a filtered answer does not empty the list. */
function fillOrigins(stats: HandshakeStatsJSON): void {
  const select = controls.elements.namedItem('origin') as HTMLSelectElement;
  const before = knownOrigins.size;
  for (const g of stats.groups) if (g.group === 'origin') knownOrigins.add(g.key);
  if (knownOrigins.size === before) return;
  knownOrigins = new Set([...knownOrigins].sort());
  const current = select.value;
  select.replaceChildren(h('option', { value: '' }, 'all origins'), ...[...knownOrigins].map((o) => h('option', { value: o }, o)));
  select.value = current;
}

function legend(series: CdfSeries[], same: ReadonlyMap<string, string>): HTMLElement {
  return h(
    'p',
    { class: 'legend' },
    ...series.map((s) => h('span', { class: `key phase-${s.name}${same.has(s.name) ? ' same' : ''}`, 'data-testid': `legend-${s.name}` }, same.has(s.name) ? `${s.name} (same line as ${same.get(s.name)}, dashed)` : s.name)),
  );
}

/** Why a selected phase has no line: TLS only exists on https: connections. */
function absentNotes(selected: ReadonlySet<string>, group: StatsGroupJSON | undefined): HTMLElement[] {
  if (!group || !selected.has('tls') || group.phases.tls) return [];
  return [h('p', { class: 'muted', 'data-testid': 'tls-absent' }, 'TLS: no line, because none of these handshakes used TLS (http: origins have no TLS phase; https: ones appear here once measured).')];
}

function logScale(): 'linear' | 'log' {
  return (controls.elements.namedItem('log') as HTMLInputElement).checked ? 'log' : 'linear';
}

function renderStrategies(selected: readonly string[]): void {
  const box = $<HTMLFieldSetElement>('#strategies');
  box.replaceChildren(
    h('legend', {}, 'Strategies a replay runs'),
    ...STRATEGY_NAMES.map((name) => h('label', {}, h('input', { type: 'checkbox', name: 'replayStrategies', value: name, checked: selected.includes(name) }), ` ${name}`)),
  );
}

async function loadSettings(): Promise<void> {
  const reply = await ask({ type: 'get-settings' });
  if (reply.type === 'error') {
    settingsStatus.textContent = `Could not load settings: ${reply.message} (${reply.code})`;
    return;
  }
  fillSettings(reply.settings);
}

function fillSettings(s: Settings): void {
  (settingsForm.elements.namedItem('autoReplay') as HTMLInputElement).checked = s.autoReplay;
  (settingsForm.elements.namedItem('hints') as HTMLInputElement).checked = s.hints;
  (settingsForm.elements.namedItem('allowPrivateNetwork') as HTMLInputElement).checked = s.allowPrivateNetwork;
  (settingsForm.elements.namedItem('speculation') as HTMLInputElement).checked = s.speculation;
  (settingsForm.elements.namedItem('prerender') as HTMLInputElement).checked = s.prerender;
  (settingsForm.elements.namedItem('eagerness') as HTMLSelectElement).value = s.eagerness;
  renderStrategies(s.replayStrategies);
  (settingsForm.elements.namedItem('excludedSites') as HTMLTextAreaElement).value = s.excludedSites.join('\n');
  (settingsForm.elements.namedItem('retentionDays') as HTMLInputElement).value = String(s.retentionDays);
  (settingsForm.elements.namedItem('caFile') as HTMLInputElement).value = s.caFile;
  (settingsForm.elements.namedItem('hostMappings') as HTMLTextAreaElement).value = s.hostMappings.join('\n');
}

async function saveSettings(): Promise<void> {
  const data = new FormData(settingsForm);
  const retention = Number(data.get('retentionDays'));
  if (!Number.isInteger(retention) || retention < 1) {
    settingsStatus.textContent = 'Retention must be a whole number of days, at least 1.';
    return;
  }
  const settings: Partial<Settings> = {
    autoReplay: data.get('autoReplay') !== null,
    hints: data.get('hints') !== null,
    allowPrivateNetwork: data.get('allowPrivateNetwork') !== null,
    speculation: data.get('speculation') !== null,
    prerender: data.get('prerender') !== null,
    eagerness: String(data.get('eagerness') ?? 'moderate') as Settings['eagerness'],
    replayStrategies: data.getAll('replayStrategies').map(String),
    excludedSites: String(data.get('excludedSites') ?? '')
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean),
    retentionDays: retention,
    caFile: String(data.get('caFile') ?? '').trim(),
    hostMappings: String(data.get('hostMappings') ?? '').split('\n'),
  };
  settingsStatus.textContent = 'Saving…';
  const reply = await ask({ type: 'set-settings', settings });
  if (reply.type === 'error') {
    settingsStatus.textContent = `Not saved: ${reply.message} (${reply.code})`;
    return;
  }
  fillSettings(reply.settings);
  settingsStatus.textContent = 'Saved.';
}

async function exportStats(format: 'csv' | 'json' | 'prom'): Promise<void> {
  const reply = await ask({ type: 'export', format, ...query() });
  if (reply.type === 'error') {
    exportLinks.append(h('p', { class: 'error-text' }, `Export failed: ${reply.message} (${reply.code})`));
    return;
  }
  const ext = format === 'prom' ? 'prom' : format;
  offerDownload(exportLinks, 'export-link', `getlist-handshakes.${ext}`, reply.data, reply.mimeType);
}

async function forgetAll(): Promise<void> {
  if (!confirm('Forget every stored handshake, page record and learned hint? This cannot be undone.')) return;
  forgetResult.textContent = 'Forgetting…';
  const reply = await ask({ type: 'forget', all: true });
  forgetResult.textContent = reply.type === 'error' ? `Not forgotten: ${reply.message} (${reply.code})` : `Removed ${reply.removed} record${reply.removed === 1 ? '' : 's'}.`;
  if (reply.type !== 'error') {
    knownOrigins = new Set();
    await loadStats();
  }
}

function fmt(v: number | undefined): string {
  return v === undefined ? '—' : v < 10 ? v.toFixed(1) : String(Math.round(v));
}

main().catch((e: unknown) => {
  document.body.prepend(h('p', { class: 'error-text', role: 'alert' }, `getlist options error: ${e instanceof Error ? e.message : String(e)}`));
});
