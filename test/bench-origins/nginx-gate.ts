/**
 * The origin-server suites need Debian's nginx. Without it they FAIL with the fix (CI installs it),
 * unless GETLIST_NGINX=0 says to skip them on purpose.
 */
import { findNginx } from '../../bench/origins/nginx-process';

function missingNginx(): string | undefined {
  try {
    findNginx();
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

export function describeWithNginx(name: string, body: () => void): void {
  if (process.env.GETLIST_NGINX === '0') {
    describe.skip(`${name} (skipped: GETLIST_NGINX=0)`, body);
    return;
  }
  // The message is OriginsError E_NGINX_MISSING's: it names the install command.
  const missing = missingNginx();
  if (missing !== undefined) {
    describe(name, () => {
      test('nginx is installed', () => {
        throw new Error(missing);
      });
    });
    return;
  }
  describe(name, body);
}

/** Loopback bindings for `origins`, ports picked by startOrigins. */
export function loopback(origins: readonly string[]): Array<{ origin: string; address: string }> {
  return origins.map((origin) => ({ origin, address: '127.0.0.1' }));
}

/** Polls `read` until `done` holds (log lines land just after the response is sent). */
export async function eventually<T>(read: () => T, done: (value: T) => boolean, timeoutMs = 3_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
}
