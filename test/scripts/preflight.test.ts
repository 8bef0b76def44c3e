import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// scripts/preflight.mjs runs first in `npm test`. Here it runs with a PATH that holds only the
// tools a test puts there (empty executables: it checks presence, it runs nothing).
const script = path.join(__dirname, '..', '..', 'scripts', 'preflight.mjs');
const root = process.platform === 'linux' && process.getuid?.() === 0;
const install = root ? 'apt-get install -y' : 'sudo apt-get install -y';

let bin: string;
beforeEach(() => {
  bin = mkdtempSync(path.join(os.tmpdir(), 'getlist-preflight-'));
});
afterEach(() => rmSync(bin, { recursive: true, force: true }));

function provide(...tools: string[]): void {
  for (const tool of tools) {
    writeFileSync(path.join(bin, tool), '#!/bin/sh\nexit 0\n');
    chmodSync(path.join(bin, tool), 0o755);
  }
}

function preflight(env: Record<string, string>, args: string[] = []) {
  return spawnSync(process.execPath, [script, ...args], { encoding: 'utf8', env: { PATH: bin, ...env } });
}

/** The packages named by the one line, and the same list in its install command. */
function parse(stderr: string): { packages: string[]; installs: string[]; skips: string[] } {
  const m = /^getlist test: missing system packages: (.+) — install with: (?:sudo )?apt-get install -y (.+?)(?: \(or skip their suites: (.+)\))?\n$/.exec(stderr);
  if (!m) throw new Error(`not the one-line form: ${JSON.stringify(stderr)}`);
  return { packages: (m[1] as string).split(' '), installs: (m[2] as string).split(' '), skips: m[3]?.split(' ') ?? [] };
}

// nginx, ip and most of the zoo's servers are also looked for in the sbin dirs (where a non-root
// PATH misses them), so these cases skip their suites or provide them rather than depend on what
// this machine has there.
const NO_NAMESPACES = { GETLIST_NGINX: '0', GETLIST_NETNS: '0', GETLIST_ZOO: '0' };
const ZOO_TOOLS = ['apache2', 'lighttpd', 'caddy', 'h2o', 'haproxy', 'varnishd', 'traffic_server', 'ss'];

describe('scripts/preflight.mjs', () => {
  test('with nothing on PATH: one line on stderr naming each missing package, exit 1, and how to skip', () => {
    const r = preflight(NO_NAMESPACES);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')).toHaveLength(2); // one line and its newline
    const line = parse(r.stderr);
    expect(line.packages).toEqual(['openssl', 'chromium', 'firefox-esr', 'prometheus']);
    expect(line.installs).toEqual(line.packages);
    expect(r.stderr).toContain(`install with: ${install} `);
    expect(line.skips).toEqual(['GETLIST_E2E=0', 'GETLIST_PROMETHEUS=0']);
  });

  test('a tool on PATH drops out of the list; with all of them it is silent and exits 0', () => {
    provide('chromium', 'prometheus');
    expect(parse(preflight(NO_NAMESPACES).stderr).packages).toEqual(['openssl', 'firefox-esr']);
    provide('openssl', 'firefox-esr');
    const r = preflight(NO_NAMESPACES);
    expect(r).toMatchObject({ status: 0, stdout: '', stderr: '' });
  });

  test('a suite skipped on purpose does not ask for its tool', () => {
    provide('openssl');
    expect(preflight({ ...NO_NAMESPACES, GETLIST_E2E: '0' }).stderr).toMatch(/packages: prometheus —/);
    expect(preflight({ ...NO_NAMESPACES, GETLIST_E2E: '0', GETLIST_PROMETHEUS: '0' })).toMatchObject({ status: 0, stderr: '' });
    // Only "0" skips, as in the suites' own gates.
    expect(parse(preflight({ ...NO_NAMESPACES, GETLIST_E2E: '1', GETLIST_PROMETHEUS: '0' }).stderr).packages).toEqual(['chromium', 'firefox-esr']);
  });

  test('nginx on PATH is found; openssl cannot be skipped', () => {
    provide('nginx', 'chromium', 'firefox-esr', 'prometheus');
    const r = preflight({ GETLIST_NETNS: '0', GETLIST_E2E: '0', GETLIST_PROMETHEUS: '0', GETLIST_ZOO: '0' });
    const line = parse(r.stderr);
    expect(line.packages).toEqual(['openssl']);
    expect(line.skips).toEqual([]);
  });

  test('gcc and libc6-dev are needed exactly when the namespace suites run (root on Linux, not GETLIST_NETNS=0)', () => {
    provide('openssl', 'chromium', 'firefox-esr', 'prometheus', 'ip');
    const r = preflight({ GETLIST_NGINX: '0', GETLIST_ZOO: '0' });
    if (root) {
      expect(parse(r.stderr)).toMatchObject({ packages: ['gcc', 'libc6-dev'], skips: ['GETLIST_NETNS=0'] });
      provide('gcc');
      expect(preflight({ GETLIST_NGINX: '0', GETLIST_ZOO: '0' })).toMatchObject({ status: 0, stderr: '' });
    } else {
      expect(r).toMatchObject({ status: 0, stderr: '' });
    }
    expect(preflight({ GETLIST_NGINX: '0', GETLIST_NETNS: '0', GETLIST_ZOO: '0' })).toMatchObject({ status: 0, stderr: '' });
  });

  test('the server zoo asks for each member\'s package unless GETLIST_ZOO=0, and for none once every tool is there', () => {
    provide('openssl', 'chromium', 'firefox-esr', 'prometheus');
    const env = { GETLIST_NGINX: '0', GETLIST_NETNS: '0' };
    // caddy, h2o and traffic_server live in /usr/bin, which this PATH leaves out; the sbin ones may be on this machine.
    const line = parse(preflight(env).stderr);
    expect(line.packages).toEqual(expect.arrayContaining(['caddy', 'h2o', 'trafficserver']));
    expect(line.skips).toEqual(['GETLIST_ZOO=0']);
    expect(preflight({ ...env, GETLIST_ZOO: '0' })).toMatchObject({ status: 0, stderr: '' });
    provide(...ZOO_TOOLS);
    expect(preflight(env)).toMatchObject({ status: 0, stderr: '' });
  });

  test('--list prints the missing packages for .ci/run and exits 0', () => {
    provide('openssl', 'firefox-esr');
    const r = preflight({ ...NO_NAMESPACES, GETLIST_PROMETHEUS: '0' }, ['--list']);
    expect(r).toMatchObject({ status: 0, stdout: 'chromium\n', stderr: '' });
    provide('chromium');
    expect(preflight({ ...NO_NAMESPACES, GETLIST_PROMETHEUS: '0' }, ['--list'])).toMatchObject({ status: 0, stdout: '' });
  });
});
