/**
 * `node dist/bench/link.js selfcheck [--json]` — checks the emulated link (bench/link/) against its
 * settings: connect time vs RTT, goodput vs rate, drop rate vs loss. Runs as root, or, for any other
 * user, rootless inside a user namespace where the kernel allows it (bench/link/rootless.ts).
 * `cleanup` removes namespaces left by dead runs as root (rootless runs leave none). Exit status 1
 * if a check fails, 2 on a usage or setup error.
 */
import { helpText } from '../cli/command-line';
import { LINK_COMMAND, parseLinkArgs } from './link-args';
import { cleanupStale } from './cleanup-registry';
import { ensureLinkPrivileges } from './rootless';
import { runSelfCheck } from './self-check';
import { runMain } from '../cli/run-main';

async function main(argv: readonly string[]): Promise<number> {
  const args = parseLinkArgs(argv); // usage errors first: no rootless re-run for those
  if (args.mode === 'help') {
    process.stdout.write(`${helpText(LINK_COMMAND)}\n`);
    return 0;
  }
  if (args.mode === 'selfcheck') {
    const json = args.json;
    const privilege = await ensureLinkPrivileges();
    const result = await runSelfCheck(json ? undefined : (line) => process.stdout.write(`${line}\n`));
    if (json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else process.stdout.write(`${result.passed ? 'PASS' : 'FAIL'} in ${result.elapsedMs} ms (${privilege}); TCP: ${result.info.congestionControl}, initcwnd ${result.info.initCwnd}, slow_start_after_idle ${result.info.slowStartAfterIdle}, kernel ${result.info.kernel}\n`);
    return result.passed ? 0 : 1;
  }
  if (process.getuid?.() !== 0) {
    process.stdout.write('nothing to remove: without root, links live in private namespaces that go away with their process\n');
    return 0;
  }
  const removed = await cleanupStale();
  process.stdout.write(removed.length ? `removed ${removed.join(', ')}\n` : 'nothing to remove\n');
  return 0;
}

// A link that cannot be set up (no root, no user namespaces) is the caller's to fix: exit 2.
runMain('link', () => main(process.argv.slice(2)), { usage: (code) => code.startsWith('E_LINK') });
