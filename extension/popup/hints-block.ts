import type { HintVerdict } from '../../src/page/hints/hint-outcome';
import type { HintsView, Settings } from '../../src/page/messages/messages';
import { h, ms } from '../ui/dom';
import { ask } from '../ui/ui-client';

/**
 * "Early hints": what this load was hinted (from the learned list), which hints the page used and
 * which were wasted, the time against the page's earlier unhinted visits, whether a slow link cut
 * the list down to what the first paint needs, and the per-site switch.
 */
export function hintsBlock(view: HintsView, onChange: () => void): HTMLElement {
  const toggle = h('input', { type: 'checkbox', 'data-testid': 'hints-site-toggle', checked: !view.siteDisabled, disabled: view.host === '' });
  toggle.addEventListener('change', () => void setSite(view.host, toggle.checked).then(onChange));
  const o = view.outcome;
  const used = o?.verdicts.filter((v) => v.verdict === 'used') ?? [];
  const wasted = o?.verdicts.filter((v) => v.verdict === 'wasted') ?? [];
  const applied = view.applied ? view.applied.preconnects.length + view.applied.preloads.length : 0;
  const summary = !view.enabled
    ? 'Hints are off for this site.'
    : applied === 0
      ? `No hints on this load: learned from ${view.learnedVisits.page} visit(s) of this page and ${view.learnedVisits.template} of pages like it; hints start after 2.`
      : `${applied} hint${applied === 1 ? '' : 's'} applied (${view.applied?.preconnects.length ?? 0} preconnect, ${view.applied?.preloads.length ?? 0} preload)` +
        (o ? ` · ${used.length} used · ${wasted.length} wasted` : ' · waiting for the load to settle');
  const saved =
    o?.savedMs === undefined
      ? o && o.unhintedVisits === 0
        ? 'No earlier unhinted visit of this page to compare with.'
        : null
      : `Page complete ${ms(o.completeMs)} vs ${ms(o.unhintedMedianMs)} median of ${o.unhintedVisits} earlier unhinted visit(s): ${o.savedMs >= 0 ? `${ms(o.savedMs)} faster` : `${ms(-o.savedMs)} slower`}.`;
  const path = view.enabled ? view.applied?.path : undefined;
  const pathLine = path?.bandwidthBound
    ? `Slow link: the page's render-blocking bytes took ${path.criticalRtts} round trips to arrive, so only what the first paint needs is hinted (late style sheets, the largest late image in view, connections to their origins).`
    : null;
  return h(
    'section',
    { class: 'block', 'data-testid': 'hints-block' },
    h('h2', {}, 'Early hints from what this site needed before'),
    h('label', {}, toggle, ` Hints on ${view.host || 'this site'}`),
    h('p', { 'data-testid': 'hints-summary' }, summary),
    pathLine ? h('p', { 'data-testid': 'hints-path' }, pathLine) : null,
    saved ? h('p', { 'data-testid': 'hints-saved' }, saved) : null,
    o && o.verdicts.length > 0 ? h('ul', { class: 'hint-list', 'data-testid': 'hints-verdicts' }, ...o.verdicts.map(verdictItem)) : null,
  );
}

function verdictItem(v: HintVerdict): HTMLElement {
  const what = v.hint.rel === 'preload' ? `preload ${v.hint.as}${v.hint.crossorigin ? ' (CORS)' : ''}` : `preconnect${v.hint.crossorigin ? ' (CORS)' : ''}`;
  return h('li', { class: `hint-${v.verdict}`, 'data-verdict': v.verdict, title: v.why }, `${v.verdict === 'used' ? '✓' : '✗'} ${what} ${v.hint.href} — ${v.why}`);
}

async function setSite(host: string, on: boolean): Promise<void> {
  const reply = await ask({ type: 'get-settings' });
  if (reply.type !== 'get-settings') return;
  const others = reply.settings.hintsDisabledSites.filter((s) => s !== host);
  const patch: Partial<Settings> = { hintsDisabledSites: on ? others : [...others, host] };
  await ask({ type: 'set-settings', settings: patch });
}
