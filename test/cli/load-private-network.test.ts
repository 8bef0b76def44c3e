import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describeNetns } from '../bench-link/netns-gate';

/**
 * Private Network Access in `getlist load`: a page on a private address may not make getlist
 * connect to loopback. The page needs an address that is not loopback, so the test runs in a
 * fresh network namespace (root) where 198.18.0.1 is added to its own `lo`; a counting listener
 * on 127.0.0.1 is the judge.
 */

const run = promisify(execFile);
const BIN = path.join(__dirname, '..', '..', 'bin', 'getlist.js');
const CHILD = path.join(__dirname, '..', 'support', 'private-page-child.js');

interface ChildReport {
  exit: number;
  stdout: string;
  stderr: string;
  accepts: number;
  loopback: string;
}

async function inNamespace(...flags: string[]): Promise<ChildReport> {
  const script = `ip link set lo up && ip addr add 198.18.0.1/32 dev lo && exec "$0" "$@"`;
  const { stdout } = await run('unshare', ['--net', '--', 'sh', '-c', script, process.execPath, CHILD, BIN, ...flags], { timeout: 30_000 });
  return JSON.parse(stdout) as ChildReport;
}

function codes(report: ChildReport): Record<string, string> {
  const runs = (JSON.parse(report.stdout) as { runs: Array<{ strategy: string; requests: Array<{ url: string; error?: { code: string } | null }> }> }).runs;
  return Object.fromEntries(runs.flatMap((r) => r.requests.map((q) => [`${r.strategy} ${q.url.replace(report.loopback, 'LOOPBACK')}`, q.error?.code ?? 'ok'])));
}

describeNetns('getlist load: Private Network Access', () => {
  test('a private page naming loopback: E_PRIVATE_NETWORK under every strategy, and the loopback listener sees no connection', async () => {
    const report = await inNamespace('--strategy', 'http10,browser,pipelined,getlist,h2');
    expect(report.exit).toBe(0);
    const byRequest = codes(report);
    for (const s of ['http10', 'browser', 'pipelined', 'getlist', 'h2']) expect(byRequest[`${s} LOOPBACK/x.png`]).toBe('E_PRIVATE_NETWORK');
    expect(report.accepts).toBe(0);
  }, 40_000);

  test('--allow-private-network lets it through (the listener counts)', async () => {
    const report = await inNamespace('--strategy', 'browser', '--allow-private-network');
    expect(codes(report)['browser LOOPBACK/x.png']).not.toBe('E_PRIVATE_NETWORK');
    expect(report.accepts).toBeGreaterThan(0);
  }, 40_000);
});
