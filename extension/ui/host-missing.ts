import { INSTALL_FROM_CHECKOUT } from '../../src/page/messages/install-hint';
import type { HostStatus } from '../../src/page/messages/messages';
import { h } from './dom';

/** The fix when the background gives none: the documented install from a checkout. */
const DEFAULT_FIX = INSTALL_FROM_CHECKOUT;

/** Whether the host cannot be used: the block below should be shown. */
export function hostUnavailable(status: HostStatus | undefined): boolean {
  return status !== undefined && (status.state === 'missing' || status.state === 'error');
}

/** The `host-missing` block: what is wrong and the exact command that fixes it. */
export function hostMissingBlock(status: HostStatus): HTMLElement {
  const fix = status.fix ?? DEFAULT_FIX;
  const title = status.state === 'missing' ? 'The getlist native host is not installed' : 'The getlist native host failed';
  return h(
    'section',
    { class: 'host-missing', 'data-testid': 'host-missing', role: 'alert' },
    h('strong', {}, title),
    status.message ? h('p', { class: 'host-message' }, status.message) : null,
    h('p', {}, 'Run this in a terminal, then reopen this page:'),
    h('pre', {}, h('code', { 'data-testid': 'host-fix' }, fix)),
    fix.includes('doctor') ? null : h('p', {}, 'To check it end to end: ', h('code', { 'data-testid': 'host-doctor' }, `${status.cliCommand ?? 'getlist'} doctor`)),
    h('p', { class: 'muted' }, 'Page timings from the browser still work; handshake measurement, replays and stats need the host.'),
  );
}
