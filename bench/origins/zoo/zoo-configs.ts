/** Writes a member's configuration into the run's dir and says which processes run it. */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { apacheZooConfig, apacheZooLaunch } from './apache-zoo';
import { caddyZooConfig, caddyZooLaunch } from './caddy-zoo';
import { h2oZooConfig, h2oZooLaunch } from './h2o-zoo';
import { haproxyZooConfig, haproxyZooLaunch } from './haproxy-zoo';
import { lighttpdZooConfig, lighttpdZooLaunch } from './lighttpd-zoo';
import { nginxZooConfig, nginxZooLaunch } from './nginx-zoo';
import { plainOriginConfig, plainOriginLaunch, plainOriginScript } from './plain-origin';
import { TRAFFICSERVER_LOG_NAME, trafficServerFiles, trafficServerLaunch, trafficServerRunroot } from './trafficserver-zoo';
import { varnishZooLaunches, varnishZooVcl } from './varnish-zoo';
import type { ZooLogDialect } from './zoo-access-log';
import type { ZooMember } from './zoo-members';
import type { ZooConfigInput, ZooLaunch } from './zoo-types';

export interface ZooPrepared {
  readonly launches: readonly ZooLaunch[];
  readonly dialect: ZooLogDialect;
  /** Where the member's access log ends up (Traffic Server picks its own file name). */
  readonly accessLogPath: string;
  readonly errorLogPath: string;
}

/** Gives a user a tree it must write: lighttpd, h2o and Traffic Server drop root before opening their logs or pid file. */
function chownTree(path: string, user: string): void {
  execFileSync('chown', ['-R', `${user}:${user}`, path], { stdio: 'ignore' });
}

function trafficServer(c: ZooConfigInput): ZooPrepared {
  for (const d of ['ats-etc', 'ats-var', 'ats-run', 'ats-log', 'ats-cache-dir', 'ats-data']) mkdirSync(join(c.dir, d), { recursive: true });
  const key = join(c.dir, 'ats-etc', 'origin.key');
  const cert = join(c.dir, 'ats-etc', 'origin.pem');
  copyFileSync(c.keyPath, key);
  copyFileSync(c.certPath, cert);
  const input = { ...c, certPath: cert, keyPath: key };
  for (const [name, text] of Object.entries(trafficServerFiles(input))) writeFileSync(join(c.dir, 'ats-etc', name), text);
  const runroot = join(c.dir, 'runroot.yaml');
  writeFileSync(runroot, trafficServerRunroot(c));
  for (const d of ['ats-etc', 'ats-var', 'ats-run', 'ats-log', 'ats-cache-dir', 'ats-data']) chownTree(join(c.dir, d), 'trafficserver');
  return { launches: [trafficServerLaunch(c, runroot)], dialect: 'zoo', accessLogPath: join(c.dir, 'ats-log', `${TRAFFICSERVER_LOG_NAME}.log`), errorLogPath: join(c.dir, 'ats-log', 'diags.log') };
}

export function prepareZooMember(member: ZooMember, c: ZooConfigInput): ZooPrepared {
  const file = (name: string, text: string): string => {
    const p = join(c.dir, name);
    writeFileSync(p, text);
    return p;
  };
  const errorLogPath = join(c.dir, 'error.log');
  const plain = (launches: ZooLaunch[], dialect: ZooLogDialect = 'zoo'): ZooPrepared => ({ launches, dialect, accessLogPath: c.accessLogPath, errorLogPath });
  switch (member) {
    case 'nginx':
      for (const t of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(c.dir, `${t}_temp`), { recursive: true });
      return plain([nginxZooLaunch(c, file('nginx.conf', nginxZooConfig(c)))]);
    case 'apache':
      return plain([apacheZooLaunch(c, file('apache2.conf', apacheZooConfig(c)))]);
    case 'lighttpd':
      // It opens its logs after dropping to www-data, as Debian's /var/log/lighttpd is www-data's.
      chownTree(c.dir, 'www-data');
      return plain([lighttpdZooLaunch(c, file('lighttpd.conf', lighttpdZooConfig(c)))]);
    case 'caddy':
      return plain([caddyZooLaunch(c, file('Caddyfile', caddyZooConfig(c)))], 'caddy');
    case 'h2o':
      // It writes its pid file after dropping to www-data.
      chownTree(c.dir, 'www-data');
      return plain([h2oZooLaunch(c, file('h2o.conf', h2oZooConfig(c)))]);
    case 'haproxy': {
      const pem = file('haproxy.pem', `${readFileSync(c.certPath, 'utf8')}${readFileSync(c.keyPath, 'utf8')}`);
      return plain([haproxyZooLaunch(c, file('haproxy.cfg', haproxyZooConfig(c, pem)))]);
    }
    case 'varnish':
      return plain(varnishZooLaunches(c, file('default.vcl', varnishZooVcl(c))));
    case 'trafficserver':
      return trafficServer(c);
    case 'plain':
      return plain([plainOriginLaunch(file('plain-origin.js', plainOriginScript()), file('plain-origin.json', plainOriginConfig(c)))]);
  }
}
