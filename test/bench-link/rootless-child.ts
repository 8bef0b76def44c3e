/**
 * Child for the rootless wrapper tests, run as an unprivileged user; it re-runs itself in the
 * wrapper through ensureLinkPrivileges, then:
 * - `echo STATUS`: reads one line of stdin, prints what it sees, exits with STATUS;
 * - `hold`: starts `sleep 599.25` (a marker the test looks for), prints {ready}, and on SIGTERM
 *   prints {signal} and exits 43.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, readFileSync, readdirSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { ensureLinkPrivileges } from '../../bench/link/rootless';

const out = (o: unknown): boolean => process.stdout.write(`${JSON.stringify(o)}\n`);

async function main(): Promise<void> {
  const privilege = await ensureLinkPrivileges();
  const [mode, arg] = process.argv.slice(2);
  if (mode === 'echo') {
    const line = await new Promise<string>((resolve) => createInterface({ input: process.stdin }).once('line', resolve));
    let etcWritable = true;
    try {
      accessSync('/etc/netns', constants.W_OK);
    } catch {
      etcWritable = false;
    }
    const init = readFileSync('/proc/1/cmdline', 'latin1').split('\0')[0];
    out({ privilege, uid: process.getuid?.(), init, line, netns: readdirSync('/var/run/netns'), etcWritable });
    process.exit(Number(arg));
  }
  if (mode === 'hold') {
    spawn('sleep', ['599.25'], { stdio: 'ignore' });
    process.on('SIGTERM', () => {
      out({ signal: 'SIGTERM' });
      process.exit(43);
    });
    out({ ready: true, privilege });
    setInterval(() => undefined, 1000);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(2);
});
