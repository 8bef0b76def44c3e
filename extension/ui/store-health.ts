import { storeHealthText, type StoreHealth } from '../../src/protocol/store-health';
import { h } from './dom';

/**
 * The warning shown when the host's store is not saving what it measures ("store full: N records
 * not saved"), or null when all is well. Shared by the popup and the options page.
 */
export function storeHealthBlock(health: StoreHealth | undefined): HTMLElement | null {
  const text = storeHealthText(health);
  if (!text || !health) return null;
  const advice =
    health.state === 'full'
      ? 'Free some disk space: the host keeps the waiting records in memory and saves them when space returns.'
      : health.state === 'failing'
        ? `The host cannot write its store${health.error ? `: ${health.error.message}` : ''}. Its log says more; \`getlist doctor\` checks the installation.`
        : 'Records were dropped while the store could not be written.';
  return h('section', { class: 'store-health', 'data-testid': 'store-health', role: 'alert' }, h('strong', {}, text), h('p', {}, advice));
}
