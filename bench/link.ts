/**
 * `node dist/bench/link.js selfcheck [--json]` — checks the emulated link (bench/link/) against its
 * settings: connect time vs RTT, goodput vs rate, drop rate vs loss. Runs as root, or, for any other
 * user, rootless inside a user namespace where the kernel allows it (bench/link/rootless.ts).
 * `cleanup` removes namespaces left by dead runs as root (rootless runs leave none). Exit status 1
 * if a check fails, 2 on a usage or setup error.
 */
import { cleanupStale } from './link/cleanup-registry';
import { ensureLinkPrivileges } from './link/rootless';
import { runSelfCheck } from './link/self-check';

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  const json = rest.includes('--json');
  if (command === 'selfcheck') {
    const privilege = await ensureLinkPrivileges();
    const result = await runSelfCheck(json ? undefined : (line) => process.stdout.write(`${line}\n`));
    if (json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else process.stdout.write(`${result.passed ? 'PASS' : 'FAIL'} in ${result.elapsedMs} ms (${privilege}); TCP: ${result.info.congestionControl}, initcwnd ${result.info.initCwnd}, slow_start_after_idle ${result.info.slowStartAfterIdle}, kernel ${result.info.kernel}\n`);
    return result.passed ? 0 : 1;
  }
  if (command === 'cleanup') {
    if (process.getuid?.() !== 0) {
      process.stdout.write('nothing to remove: without root, links live in private namespaces that go away with their process\n');
      return 0;
    }
    const removed = await cleanupStale();
    process.stdout.write(removed.length ? `removed ${removed.join(', ')}\n` : 'nothing to remove\n');
    return 0;
  }
  process.stderr.write('usage: node dist/bench/link.js selfcheck [--json] | cleanup\n');
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    const e = err as { code?: string; message?: string };
    process.stderr.write(`link: ${e.message ?? String(err)}\n`);
    process.exit(e.code?.startsWith('E_LINK') ? 2 : 1);
  },
);
