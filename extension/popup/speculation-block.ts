import type { Settings } from '../../src/page/messages/messages';
import type { LinkRefusal } from '../../src/page/speculation/link-safety';
import type { PageRefusal } from '../../src/page/speculation/page-gate';
import type { SpeculationView } from '../../src/page/speculation/speculation-types';
import { h, ms } from '../ui/dom';
import { ask } from '../ui/ui-client';

const PAGE_REFUSALS: Record<PageRefusal, string> = {
  off: 'Speculation is off in the options.',
  excluded: 'This site is excluded.',
  'site-off': 'Speculation is off for this site.',
  private: 'Private window: nothing is learned or fetched ahead.',
  'save-data': 'The browser asks for less data (Save-Data): nothing is fetched ahead.',
  'own-rules': 'This page has speculation rules of its own: getlist leaves it alone.',
  unsupported: 'This browser has no speculation rules, and its link prefetch fetches a page again unless the HTTP cache still holds it fresh: nothing is fetched ahead.',
};

const LINK_REFUSALS: Record<LinkRefusal, string> = {
  'not-http': 'not http(s)',
  'cross-origin': 'another origin',
  credentials: 'credentials in the URL',
  'same-page': 'this page',
  'not-document': 'a file, not a page',
  action: 'looks like an action (sign out, delete, cart…)',
  'unknown-query': 'a query parameter the site was not seen to use',
  download: 'a download',
  'other-window': 'opens another window',
  'no-store': 'no-store (or not kept by the cache) before',
};

/**
 * "Next page before the click": how this page was served (the browser's own `deliveryType` and
 * `activationStart`), what that saved against the page's earlier visits that were not speculated,
 * the site's hit rate and wasted bytes, this page's links, and the per-site switch.
 */
export function speculationBlock(view: SpeculationView, onChange: () => void): HTMLElement {
  const toggle = h('input', { type: 'checkbox', 'data-testid': 'speculation-site-toggle', checked: !view.siteDisabled, disabled: view.host === '' });
  toggle.addEventListener('change', () => void setSite(view.host, toggle.checked).then(onChange));
  const s = view.served;
  const how = !s ? 'Not reported yet (the page reports after its load).' : s.via === 'network' ? `Fetched on the click${s.deliveryType ? ` (deliveryType ${s.deliveryType})` : ''}.` : `Served from a ${s.via} (deliveryType ${s.deliveryType || '—'}${s.via === 'prerender' ? ', activated on the click' : ''}).`;
  const figures = s ? ` Response start ${ms(s.responseStartMs)}${s.lcpMs !== undefined ? `, LCP ${ms(s.lcpMs)}` : ''}` : '';
  const b = view.baseline;
  const saved = view.saved && b
    ? ` vs ${ms(b.responseStartMs)}${b.lcpMs !== undefined ? ` / LCP ${ms(b.lcpMs)}` : ''}, median of ${b.visits} earlier visit(s) not speculated: ${ms(view.saved.responseStartMs)} saved on the response${view.saved.lcpMs !== undefined ? `, ${ms(view.saved.lcpMs)} on LCP` : ''}.`
    : s && s.via !== 'network' ? ' — no earlier visit of this page that was not speculated to compare with.' : s ? '.' : '';
  const o = view.site;
  const notFollowed = o.speculated - o.followed;
  const siteLine = o.speculated === 0
    ? 'Nothing fetched ahead on this site yet.'
    : `${o.speculated} fetched ahead, ${o.followed} followed (hit rate ${Math.round((o.hitRate ?? 0) * 100)} %); ${notFollowed} not followed: ${o.wastedBytes.toLocaleString('en-US')} B wasted (their document bodies as last visited)${o.wastedUnsized > 0 ? `, ${o.wastedUnsized} never visited, size not known` : ''}.`;
  const links = view.links;
  const refused = links ? Object.entries(links.refused).map(([code, n]) => `${n} ${LINK_REFUSALS[code as LinkRefusal]}`) : [];
  return h(
    'section',
    { class: 'block', 'data-testid': 'speculation-block' },
    h('h2', {}, 'Next page before the click'),
    h('label', {}, toggle, ` Fetch ahead on ${view.host || 'this site'}`),
    view.refusal ? h('p', { 'data-testid': 'speculation-refusal' }, PAGE_REFUSALS[view.refusal]) : null,
    h('p', { 'data-testid': 'speculation-served' }, `${how}${figures}${saved}`),
    h('p', { 'data-testid': 'speculation-site' }, siteLine),
    links ? h('p', { 'data-testid': 'speculation-links' }, `This page: ${links.candidates} link(s) may be fetched ahead${refused.length ? `; refused: ${refused.join(', ')}` : ''}.${view.speculatedHere.length ? ` Fetched ahead: ${view.speculatedHere.join(', ')}.` : ''}`) : null,
  );
}

async function setSite(host: string, on: boolean): Promise<void> {
  const reply = await ask({ type: 'get-settings' });
  if (reply.type !== 'get-settings') return;
  const others = reply.settings.speculationDisabledSites.filter((s) => s !== host);
  const patch: Partial<Settings> = { speculationDisabledSites: on ? others : [...others, host] };
  await ask({ type: 'set-settings', settings: patch });
}
