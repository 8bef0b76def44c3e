import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nginxZooConfig } from '../../bench/origins/zoo/nginx-zoo';
import type { ZooConfigInput } from '../../bench/origins/zoo/zoo-types';
import { describeZoo, missingMember } from './zoo-gate';

function input(dir: string, tcpNopush?: boolean): ZooConfigInput {
  const root = join(dir, 'www');
  mkdirSync(root, { recursive: true });
  for (const t of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, `${t}_temp`), { recursive: true });
  return {
    dir, certPath: join(dir, 'none.pem'), keyPath: join(dir, 'none.key'), accessLogPath: join(dir, 'access.log'),
    listeners: [{ origin: 'www.example.test', address: '127.0.0.1', port: 8080, tls: false, root }],
    ...(tcpNopush === undefined ? {} : { tcpNopush }),
  };
}

/** Whether nginx accepts the configuration (`-t` parses it and checks its files without serving). */
function nginxAccepts(dir: string, conf: string): boolean {
  const path = join(dir, 'nginx.conf');
  writeFileSync(path, conf);
  try {
    execFileSync('/usr/sbin/nginx', ['-t', '-q', '-p', dir, '-e', join(dir, 'error.log'), '-c', path, '-g', `pid ${join(dir, 'nginx.pid')};`], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

describeZoo('the zoo\'s nginx configuration', () => {
  test('Debian\'s `tcp_nopush on` unless the control turns it off; nginx accepts both (`nginx -t`)', () => {
    const missing = missingMember('nginx');
    if (missing !== undefined) throw new Error(missing);
    const dir = mkdtempSync(join(tmpdir(), 'nginx-zoo-'));
    try {
      for (const [nopush, line] of [[undefined, '  tcp_nopush on;'], [true, '  tcp_nopush on;'], [false, '  tcp_nopush off;']] as const) {
        const conf = nginxZooConfig(input(dir, nopush));
        expect(conf.split('\n').filter((l) => l.includes('tcp_nopush'))).toEqual([line]);
        expect(nginxAccepts(dir, conf)).toBe(true);
        // The check reads the directive: a value nginx does not know is refused.
        expect(nginxAccepts(dir, conf.replace(line, '  tcp_nopush maybe;'))).toBe(false);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
