import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCert {
  /** PEM private key (EC P-256). */
  key: string;
  /** PEM self-signed certificate for CN=localhost, SAN DNS:localhost, IP:127.0.0.1. */
  cert: string;
}

const cached = new Map<string, TestCert>();

/**
 * A self-signed certificate for `localhost` / `127.0.0.1`, generated at test time with the `openssl`
 * CLI (no key material lives in the repository). Generated once per process (per Jest worker) and
 * `issuer`: another name gives another key and certificate, for a test that trusts one and not the
 * other (the name is the certificate's organisation).
 */
export function testCert(issuer = 'getlist test'): TestCert {
  const known = cached.get(issuer);
  if (known) return known;
  const dir = mkdtempSync(join(tmpdir(), 'getlist-cert-'));
  const keyPath = join(dir, 'key.pem');
  const certPath = join(dir, 'cert.pem');
  try {
    try {
      execFileSync(
        'openssl',
        [
          'req', '-x509',
          '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1',
          '-nodes', '-days', '2',
          '-subj', `/O=${issuer}/CN=localhost`,
          '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1',
          '-keyout', keyPath, '-out', certPath,
        ],
        { stdio: ['ignore', 'ignore', 'pipe'], timeout: 30_000 },
      );
    } catch (err) {
      const e = err as NodeJS.ErrnoException & { stderr?: Buffer };
      if (e.code === 'ENOENT') {
        throw new Error('test/support/tls-cert: the `openssl` command was not found on PATH. Install OpenSSL (e.g. `apt-get install openssl`); CI installs it.');
      }
      throw new Error(`test/support/tls-cert: openssl failed to generate a test certificate: ${e.message}\n${e.stderr?.toString() ?? ''}`);
    }
    const made = { key: readFileSync(keyPath, 'utf8'), cert: readFileSync(certPath, 'utf8') };
    cached.set(issuer, made);
    return made;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
