import { formatHostsFile, hostResolverRules, hostsFile } from '../../bench/link/host-resolution';
import { startLink } from '../../bench/link/link-emulator';
import { LinkError } from '../../bench/link/link-error';
import { resolveLinkOptions } from '../../bench/link/link-options';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('resolveLinkOptions', () => {
  test('splits the RTT evenly and sizes the default queue to max(64 KiB, one BDP)', () => {
    const c = resolveLinkOptions({ rttMs: 100, downBitsPerSec: 20e6, upBitsPerSec: 1e6 });
    expect(c.down).toEqual({ bitsPerSec: 20e6, delayNs: 50e6, queueBytes: 250_000, loss: 0 });
    expect(c.up).toEqual({ bitsPerSec: 1e6, delayNs: 50e6, queueBytes: 65_536, loss: 0 });
    expect(c).toMatchObject({ hosts: 1, seed: 1 });
  });

  test('leaves rates out as 0, which the forwarder reads as unlimited', () => {
    expect(resolveLinkOptions({ rttMs: 0 }).up.bitsPerSec).toBe(0);
  });

  test.each([
    [{ rttMs: -1 }, 'rttMs'],
    [{ rttMs: Number.NaN }, 'rttMs'],
    [{ rttMs: 10, loss: 1 }, 'loss'],
    [{ rttMs: 10, queueBytes: 100 }, 'queueBytes'],
    [{ rttMs: 10, hosts: 0 }, 'hosts'],
    [{ rttMs: 10, hosts: 255 }, 'hosts'],
    [{ rttMs: 10, downBitsPerSec: 10 }, 'downBitsPerSec'],
    [{ rttMs: 10, seed: -1 }, 'seed'],
  ])('rejects %j naming %s', (opts, name) => {
    expect(() => resolveLinkOptions(opts)).toThrow(expect.objectContaining({ code: 'E_LINK_BAD_OPTION', message: expect.stringContaining(name) }));
  });
});

describe('host resolution', () => {
  const hosts = { 'a.test': '198.19.0.1', 'b.test': '198.19.0.2' };

  test('Chromium rules map each name', () => {
    expect(hostResolverRules(hosts)).toBe('MAP a.test 198.19.0.1,MAP b.test 198.19.0.2');
  });

  test('the hosts file keeps localhost and accepts a Map', () => {
    const text = formatHostsFile(new Map(Object.entries(hosts)));
    expect(text.split('\n')).toEqual(expect.arrayContaining(['127.0.0.1\tlocalhost', '198.19.0.1\ta.test', '198.19.0.2\tb.test']));
  });

  test('hostsFile writes <etc>/<ns>/hosts', () => {
    const etc = mkdtempSync(join(tmpdir(), 'gl-etc-'));
    try {
      expect(readFileSync(hostsFile('gl-c-1-1', hosts, etc), 'utf8')).toContain('198.19.0.2\tb.test');
    } finally {
      rmSync(etc, { recursive: true, force: true });
    }
  });

  test.each([[{ 'bad name': '198.19.0.1' }], [{ 'a.test': '198.19.0.300' }], [{ 'a.test': 'host' }]])('rejects %j', (bad) => {
    expect(() => hostResolverRules(bad)).toThrow(expect.objectContaining({ code: 'E_LINK_BAD_OPTION' }));
  });
});

test('startLink without root fails with E_LINK_NEEDS_ROOT before touching anything', async () => {
  const forwarderBinary = jest.fn(async () => '/nonexistent');
  await expect(startLink({ rttMs: 10 }, { getuid: () => 1000, forwarderBinary })).rejects.toMatchObject({ code: 'E_LINK_NEEDS_ROOT' });
  expect(forwarderBinary).not.toHaveBeenCalled();
});

test('inside the rootless wrapper a non-root uid passes the privilege check', async () => {
  const forwarderBinary = jest.fn(async (): Promise<string> => {
    throw new LinkError('E_LINK_BUILD', 'stop here');
  });
  const err = (await startLink({ rttMs: 10 }, { getuid: () => 1000, rootless: () => true, forwarderBinary }).catch((e: unknown) => e)) as LinkError;
  // E_LINK_TOOL_MISSING on a machine without /dev/net/tun, which is checked before the forwarder.
  expect(['E_LINK_BUILD', 'E_LINK_TOOL_MISSING']).toContain(err.code);
});
