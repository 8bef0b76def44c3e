/**
 * Varnish as Debian ships it (varnish.service: `varnishd -F -a :6081 -f default.vcl -s malloc,256m`,
 * the builtin VCL, which caches), as a reverse proxy in front of the zoo's nginx; the access log is
 * varnishncsa's, as Debian's varnishncsa.service writes it. Changed: a listener and backend per
 * origin, a work dir of its own, no jail (the work dir is the run's).
 */
import type { ZooConfigInput, ZooLaunch, ZooListener } from './zoo-types';
import { listenAddress } from './zoo-listen';
import { ZOO_READY_PATH } from './zoo-log-format';

/** `ReqStart` carries the client's address and port: the port names the connection. */
export const VARNISH_ZOO_LOG = '%{sec}t.%{msec_frac}t %{Host}i %{VSL:ReqStart[3]}x %{VSL:ReqStart[2]}x %H %s %b "%m %U"';

/** A listener's name says its port (the log's `port` field: ReqStart's third). */
const name = (l: ZooListener): string => `p${l.port}`;

function backend(l: ZooListener, i: number): string {
  return `backend b${i} { .host = "${l.address}"; .port = "${l.backendPort ?? 0}"; }`;
}

export function varnishZooVcl(c: ZooConfigInput): string {
  return [
    'vcl 4.1;',
    ...c.listeners.map(backend),
    'sub vcl_recv {',
    ...c.listeners.map((l, i) => `  if (local.socket == "${name(l)}") { set req.backend_hint = b${i}; }`),
    '}',
    '',
  ].join('\n');
}

export function varnishZooLaunches(c: ZooConfigInput, vclPath: string): ZooLaunch[] {
  const workDir = `${c.dir}/varnish`;
  const [first] = c.listeners;
  return [
    { command: '/usr/sbin/varnishd', args: ['-F', '-n', workDir, '-j', 'none', '-f', vclPath, '-s', 'malloc,256m', ...c.listeners.flatMap((l) => ['-a', `${name(l)}=${listenAddress(l.address, l.port)}`])] },
    ...(first === undefined ? [] : [{
      command: '/usr/bin/varnishncsa', args: ['-n', workDir, '-w', c.accessLogPath, '-F', VARNISH_ZOO_LOG],
      readyProbe: { listener: first, path: ZOO_READY_PATH, logPath: c.accessLogPath },
    }]),
  ];
}
