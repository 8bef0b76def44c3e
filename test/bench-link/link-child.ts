/** Child for the signal tests: starts a link, prints its names and forwarder pid, then waits. */
import { startLink } from '../../bench/link/link-emulator';

startLink({ rttMs: 10 }).then(
  (link) => {
    link.setClientHosts({ 'a.test': link.serverAddrs[0] ?? '' });
    process.stdout.write(`${JSON.stringify({ clientNs: link.clientNs, serverNs: link.serverNs, forwarderPid: link.forwarderPid })}\n`);
    setTimeout(() => process.exit(0), 20_000);
  },
  (err: unknown) => {
    process.stderr.write(`${String(err)}\n`);
    process.exit(1);
  },
);
