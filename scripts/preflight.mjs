// Runs first in `npm test`: when a system tool the suites need is missing, stop at once with one
// line naming the Debian/Ubuntu packages and the command that installs them, instead of a dozen
// suites failing one by one. A suite skipped on purpose (its GETLIST_*=0 variable) needs nothing.
//
//   node scripts/preflight.mjs          silent and exit 0 when all is there; else one line, exit 1
//   node scripts/preflight.mjs --list   print the missing packages, space-separated (.ci/run installs them)
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Where Debian keeps admin tools that a non-root PATH often lacks (bench/origins/nginx-process.ts looks there too). */
const SBIN = ['/usr/sbin', '/usr/local/sbin', '/sbin'];

/**
 * Each tool, the packages that provide it, and when the suites need it. `skip` is the variable
 * the suites honour; `applies` mirrors the suites' own gates (test/bench-link/netns-gate.ts).
 */
const REQUIREMENTS = [
  { tool: 'openssl', packages: ['openssl'] }, // TLS certificates made at test time, in many suites
  { tool: 'chromium', packages: ['chromium'], skip: 'GETLIST_E2E' }, // test/e2e, test/bench-run
  { tool: 'firefox-esr', packages: ['firefox-esr'], skip: 'GETLIST_E2E' }, // test/e2e
  { tool: 'nginx', packages: ['nginx'], skip: 'GETLIST_NGINX', sbin: true }, // test/bench-origins
  { tool: 'ip', packages: ['iproute2'], skip: 'GETLIST_NETNS', sbin: true, applies: namespaceSuitesRun }, // test/bench-link, as root
  { tool: 'gcc', packages: ['gcc', 'libc6-dev'], skip: 'GETLIST_NETNS', applies: namespaceSuitesRun }, // the link emulator's forwarder
  { tool: 'prometheus', packages: ['prometheus'], skip: 'GETLIST_PROMETHEUS' }, // the Prometheus scrape test
  // The server zoo (bench/origins/zoo, test/zoo): each member from its Debian package.
  { tool: 'apache2', packages: ['apache2'], skip: 'GETLIST_ZOO', sbin: true },
  { tool: 'lighttpd', packages: ['lighttpd', 'lighttpd-mod-openssl'], skip: 'GETLIST_ZOO', sbin: true },
  { tool: 'caddy', packages: ['caddy'], skip: 'GETLIST_ZOO' },
  { tool: 'h2o', packages: ['h2o'], skip: 'GETLIST_ZOO' },
  { tool: 'haproxy', packages: ['haproxy'], skip: 'GETLIST_ZOO', sbin: true },
  { tool: 'varnishd', packages: ['varnish'], skip: 'GETLIST_ZOO', sbin: true },
  { tool: 'traffic_server', packages: ['trafficserver'], skip: 'GETLIST_ZOO' },
  { tool: 'ss', packages: ['iproute2'], skip: 'GETLIST_ZOO', sbin: true }, // a member's readiness: its sockets listening
];

/** The namespace suites run only as root on Linux (otherwise they skip and say why). */
function namespaceSuitesRun() {
  return process.platform === 'linux' && process.getuid?.() === 0;
}

function onPath(tool, pathEnv, extraDirs) {
  for (const dir of [...pathEnv.split(delimiter).filter(Boolean), ...extraDirs]) {
    try {
      accessSync(join(dir, tool), constants.X_OK);
      return true;
    } catch {
      // not in this dir
    }
  }
  return false;
}

const env = process.env;
const missing = REQUIREMENTS.filter(
  (r) => !(r.skip && env[r.skip] === '0') && (r.applies?.() ?? true) && !onPath(r.tool, env.PATH ?? '', r.sbin ? SBIN : []),
);
const packages = [...new Set(missing.flatMap((r) => r.packages))];

if (process.argv.includes('--list')) {
  if (packages.length > 0) process.stdout.write(`${packages.join(' ')}\n`);
  process.exit(0);
}
if (packages.length > 0) {
  const sudo = process.getuid?.() === 0 ? '' : 'sudo ';
  const skips = [...new Set(missing.map((r) => r.skip).filter(Boolean))];
  const orSkip = skips.length > 0 ? ` (or skip their suites: ${skips.map((s) => `${s}=0`).join(' ')})` : '';
  process.stderr.write(`getlist test: missing system packages: ${packages.join(' ')} — install with: ${sudo}apt-get install -y ${packages.join(' ')}${orSkip}\n`);
  process.exit(1);
}
