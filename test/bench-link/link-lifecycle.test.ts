import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanupStale } from '../../bench/link/cleanup-registry';
import { startLink } from '../../bench/link/link-emulator';
import { describeNetns } from './netns-gate';
import { buildChildScript } from '../support/build-child';

const ROOT = join(__dirname, '..', '..');

function namespaces(): string[] {
  return execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' }).split('\n').map((l) => l.split(' ')[0] ?? '').filter(Boolean);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(cond: () => boolean, timeoutMs: number): Promise<boolean> {
  for (const end = Date.now() + timeoutMs; Date.now() < end; ) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return cond();
}

function run(link: Awaited<ReturnType<typeof startLink>>, cmd: string, args: string[]): Promise<string> {
  const child = link.execInClient(cmd, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  child.stdout?.setEncoding('utf8').on('data', (s: string) => (out += s));
  return new Promise((resolve) => child.once('close', () => resolve(out)));
}

describeNetns('link emulator lifecycle', () => {
  let childScript: string;
  let outDir: string;
  beforeAll(() => {
    outDir = mkdtempSync(join(tmpdir(), 'gl-link-child-'));
    childScript = join(outDir, 'link-child.js');
    buildChildScript(join(__dirname, 'link-child.ts'), childScript);
  });
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  test('close() removes namespaces, /etc/netns files and the forwarder; names resolve inside', async () => {
    const link = await startLink({ rttMs: 5, hosts: 3 });
    expect(link.serverAddrs).toEqual(['198.19.0.1', '198.19.0.2', '198.19.0.3']);
    link.setClientHosts({ 'c.test': '198.19.0.3' });
    expect(await run(link, 'getent', ['hosts', 'c.test'])).toMatch(/^198\.19\.0\.3\s+c\.test/);
    expect(namespaces()).toEqual(expect.arrayContaining([link.clientNs, link.serverNs]));
    const final = await link.close();
    expect(final?.final).toBe(true);
    expect(namespaces()).not.toContain(link.clientNs);
    expect(namespaces()).not.toContain(link.serverNs);
    expect(existsSync(`/etc/netns/${link.clientNs}`)).toBe(false);
    expect(alive(link.forwarderPid)).toBe(false);
    await expect(link.close()).resolves.toBe(final); // idempotent
    await expect(link.stats()).rejects.toMatchObject({ code: 'E_LINK_CLOSED' });
  }, 20_000);

  test('a failed start leaves nothing behind', async () => {
    const before = namespaces();
    await expect(startLink({ rttMs: 5 }, { getuid: () => 0, forwarderBinary: async () => '/bin/false' })).rejects.toMatchObject({ code: 'E_LINK_SETUP' });
    expect(namespaces()).toEqual(before);
  }, 20_000);

  test.each(['SIGTERM', 'SIGINT'] as const)('%s to the owner removes everything', async (signal) => {
    const child = spawn(process.execPath, [childScript], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const line = await new Promise<string>((resolve, reject) => {
      child.stdout.setEncoding('utf8').once('data', resolve);
      child.once('exit', (code) => reject(new Error(`child exited ${code}`)));
    });
    const { clientNs, serverNs, forwarderPid } = JSON.parse(line) as { clientNs: string; serverNs: string; forwarderPid: number };
    expect(existsSync(`/etc/netns/${clientNs}/hosts`)).toBe(true);
    child.kill(signal);
    await new Promise((r) => child.once('exit', r));
    expect(namespaces()).not.toEqual(expect.arrayContaining([clientNs]));
    expect(namespaces()).not.toContain(serverNs);
    expect(existsSync(`/etc/netns/${clientNs}`)).toBe(false);
    expect(await until(() => !alive(forwarderPid), 2_000)).toBe(true);
  }, 20_000);

  test('after SIGKILL the forwarder dies with its owner and cleanupStale removes the namespaces', async () => {
    const child = spawn(process.execPath, [childScript], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const line = await new Promise<string>((resolve) => child.stdout.setEncoding('utf8').once('data', resolve));
    const { clientNs, serverNs, forwarderPid } = JSON.parse(line) as { clientNs: string; serverNs: string; forwarderPid: number };
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(namespaces()).toEqual(expect.arrayContaining([clientNs, serverNs]));
    expect(await until(() => !alive(forwarderPid), 2_000)).toBe(true);
    expect(await cleanupStale()).toEqual(expect.arrayContaining([clientNs, serverNs]));
    expect(namespaces()).not.toContain(clientNs);
    expect(existsSync(`/etc/netns/${clientNs}`)).toBe(false);
  }, 20_000);
});
