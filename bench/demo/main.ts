/**
 * `node dist/bench/demo-link.js [--link NAME] [--page pm95|mcmanus-159|all] [--strategy a,b,...]
 * [--repeat N] [--timeout MS] [--json] [--getlist PATH]` — `getlist demo` over the packet-level link
 * of bench/link/ instead of the user-space relay: getlist's own Node demo server (no nginx) runs in
 * the server namespace, each `getlist load` in the client namespace, so handshakes, slow start and
 * RTT are real kernel TCP. Prints the demo's comparison table per page, the handshake CDF, and the
 * measured TCP connect times (one RTT each here; a loopback connect on the relay). Defaults: `--link mcmanus-100`,
 * pages pm95 and mcmanus-159, strategies http10, browser, pipelined, getlist. Runs as root, or
 * rootless where unprivileged user namespaces are allowed. Progress goes to stderr.
 *
 * `--serve --host ADDR [--port N] [--page a,b]` is internal: the demo server, which the run mode
 * starts inside the server namespace by re-executing this script (bench/demo/demo-server-process.ts).
 *
 * Exit status: 0 done; 1 a load, the server or the link failed; 2 usage (E_BENCH_USAGE,
 * E_BENCH_UNKNOWN_LINK); 128+n on signal n.
 */
import { join, resolve } from 'node:path';
import { ensureLinkPrivileges } from '../link/rootless';
import { helpText } from '../cli/command-line';
import { DEMO_LINK_COMMAND, parseDemoLinkArgs } from './demo-link-options';
import { demoLinkJson, formatDemoLinkText } from './demo-link-report';
import { serveDemo } from './demo-server-process';
import { runDemoLink } from './run-demo-link';
import { runMain, stopOnSignals } from '../cli/run-main';

async function main(argv: readonly string[]): Promise<number> {
  const args = parseDemoLinkArgs(argv); // usage errors first: no rootless re-run for those
  if (args.mode === 'help') {
    process.stdout.write(`${helpText(DEMO_LINK_COMMAND)}\n`);
    return 0;
  }
  if (args.mode === 'serve') return serveDemo(args.host, args.port, args.pages);
  const o = args.options;
  // Root: nothing to do. Otherwise re-runs this script in a private user namespace and exits with its status.
  await ensureLinkPrivileges();
  // Ctrl-C / SIGTERM / SIGHUP: exit; the link's exit action (bench/link/cleanup-registry.ts) kills the
  // demo server and the load in progress. Installed only here, in the process that owns the link
  // (not in the rootless wrapper's parent, which forwards signals).
  stopOnSignals('demo-link', 'stopping');
  const root = resolve(__dirname, '..', '..');
  const result = await runDemoLink({
    ...o,
    serverEntry: __filename,
    // dist/getlist.js only exports main(); bin/getlist.js is the launcher that calls it.
    cliPath: o.cliPath === undefined ? join(root, 'bin', 'getlist.js') : resolve(o.cliPath),
    progress: (line) => process.stderr.write(`[demo-link] ${line}\n`),
  });
  process.stdout.write(o.json ? `${JSON.stringify(demoLinkJson(result))}\n` : formatDemoLinkText(result));
  return 0;
}

runMain('demo-link', () => main(process.argv.slice(2)));
