import type { LoadPageOptions } from '../run/page-loader';
import { hasCode } from '../../src/core/coded-error';
import { parseConnectTo, parseResolve, type HostMapping } from '../transport/host-mapping';
import { boolFlag, listFlag, stringFlag, type FlagSpec, type ParsedArgs } from './args';
import { CliError } from './cli-error';

/** `getlist load` flags that decide what is fetched and how it is asked for (README "Fidelity"). */
export const FIDELITY_FLAGS = {
  viewport: { type: 'string', value: 'WxH', default: '1280x800', description: 'viewport in CSS px that srcset, <picture>, @media and lazy loading are chosen for' },
  dpr: { type: 'string', value: 'N', default: '1', description: 'device pixel ratio for srcset and image-set(), above 0 and at most 8' },
  'no-lazy': { type: 'boolean', description: 'skip loading=lazy content beyond the first viewport (listed as skipped); without it that content is fetched last' },
  'user-agent': { type: 'string', value: 'UA', default: 'getlist/<version>', description: 'User-Agent header to send, one line' },
  resolve: {
    type: 'string', value: 'HOST:PORT:ADDR', repeatable: true,
    description: 'connect to the IP address ADDR for HOST:PORT, keeping HOST for Host, SNI and the certificate (as curl; HOST may be *); repeatable',
  },
  'connect-to': {
    type: 'string', value: 'H1:P1:H2:P2', repeatable: true,
    description: 'connect to host H2 port P2 instead of H1:P1, keeping H1 for Host, SNI and the certificate (as curl; empty H1/P1 match any, empty H2/P2 keep the URL\'s); repeatable',
  },
} satisfies Record<string, FlagSpec>;

export type FidelityOptions = Pick<LoadPageOptions, 'viewport' | 'lazy'> & { userAgent?: string; hostMappings?: HostMapping[] };

/** The fidelity flags as loader and transport options; bad values are `E_USAGE` naming the flag. */
export function fidelityOptions(args: ParsedArgs): FidelityOptions {
  const out: FidelityOptions = {};
  const viewport = stringFlag(args, 'viewport');
  if (viewport !== undefined) {
    const m = /^(\d{2,5})x(\d{2,5})$/.exec(viewport);
    if (!m) throw new CliError('E_USAGE', `--viewport must be WIDTHxHEIGHT in CSS px, e.g. 1280x800; got ${JSON.stringify(viewport)}`);
    out.viewport = { width: Number(m[1]), height: Number(m[2]) };
  }
  const dpr = stringFlag(args, 'dpr');
  if (dpr !== undefined) {
    const n = Number(dpr);
    if (!/^\d+(\.\d+)?$/.test(dpr) || n <= 0 || n > 8) throw new CliError('E_USAGE', `--dpr must be a number above 0 and at most 8, e.g. 2; got ${JSON.stringify(dpr)}`);
    out.viewport = { ...out.viewport, dpr: n };
  }
  if (boolFlag(args, 'no-lazy')) out.lazy = 'skip';
  const ua = stringFlag(args, 'user-agent');
  if (ua !== undefined) {
    if (ua.trim() === '' || /[\r\n]/.test(ua)) throw new CliError('E_USAGE', '--user-agent must be one non-empty line');
    out.userAgent = ua;
  }
  try {
    const mappings = [...listFlag(args, 'resolve').map(parseResolve), ...listFlag(args, 'connect-to').map(parseConnectTo)];
    if (mappings.length > 0) out.hostMappings = mappings;
  } catch (err) {
    if (hasCode(err, 'E_INVALID_HOST_MAPPING')) throw new CliError('E_USAGE', err.message);
    throw err;
  }
  return out;
}
