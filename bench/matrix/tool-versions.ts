import { execFileSync, spawnSync } from 'node:child_process';
import { findNginx } from '../origins/nginx-process';

export function chromiumVersion(path = '/usr/bin/chromium'): string | undefined {
  try {
    return execFileSync(path, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 20_000 }).trim();
  } catch {
    return undefined;
  }
}

export function nginxVersionText(): string | undefined {
  try {
    // `nginx -v` prints to stderr.
    const r = spawnSync(findNginx(), ['-v'], { encoding: 'utf8', timeout: 10_000 });
    return /nginx\/\S+/.exec(`${r.stdout}${r.stderr}`)?.[0];
  } catch {
    return undefined;
  }
}
