/**
 * Child for the rootless end-to-end test, run as an unprivileged user: re-runs itself in the
 * wrapper, then runs one benchmark cell (a link, nginx in the server namespace, getlist and
 * Chromium in the client namespace) exactly as bench/matrix/main.ts does, and prints what came back.
 */
import { join } from 'node:path';
import { ensureLinkPrivileges } from '../../bench/link/rootless';
import { runLink } from '../../bench/run/run-link';

async function main(): Promise<void> {
  const [root = process.cwd()] = process.argv.slice(2);
  const privilege = await ensureLinkPrivileges();
  const progress: string[] = [];
  const { cells, info } = await runLink({
    plan: { link: 'spdy-dsl-20-0', cells: [{ page: 'pm95-2544-1', contenders: ['getlist', 'getlist-tls', 'chromium-h1'] }] },
    runs: 1, cliPath: join(root, 'bin', 'getlist.js'), timeoutMs: 30_000, progress: (l) => progress.push(l),
  });
  process.stdout.write(`${JSON.stringify({ privilege, info, cells, progress })}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(2);
});
