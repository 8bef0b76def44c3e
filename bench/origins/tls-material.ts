/**
 * TLS material for the origin servers, made at run time with the `openssl` CLI (no key lives in
 * the repository): a throwaway CA, and one leaf certificate it signs for every origin name and
 * address. Clients trust the CA (getlist: `transport: { ca }`; Node: `ca`), or Chromium trusts
 * the leaf's key by `--ignore-certificate-errors-spki-list=<spkiHash>`.
 */
import { execFileSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { OriginsError } from './origins-errors';

export interface TlsMaterial {
  /** PEM of the CA that signed the origins' certificate. */
  readonly caPem: string;
  readonly caPath: string;
  readonly certPath: string;
  readonly keyPath: string;
  /** {@link spkiHash} of the leaf certificate (what Chromium's SPKI allow-list matches). */
  readonly spkiHash: string;
  /** {@link spkiHash} of the CA certificate. */
  readonly caSpkiHash: string;
}

/**
 * Base64 SHA-256 of a certificate's SubjectPublicKeyInfo (DER): the format of Chromium's
 * `--ignore-certificate-errors-spki-list` and of HPKP pins.
 */
export function spkiHash(certPem: string): string {
  const spki = new X509Certificate(certPem).publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(spki).digest('base64');
}

function openssl(args: string[]): void {
  try {
    execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: 30_000 });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: Buffer };
    if (e.code === 'ENOENT') {
      throw new OriginsError('E_OPENSSL_MISSING', 'the `openssl` command was not found on PATH: install it with `apt-get install -y openssl`');
    }
    throw new OriginsError('E_OPENSSL_FAILED', `openssl ${args[0] ?? ''} failed: ${e.message}\n${e.stderr?.toString() ?? ''}`);
  }
}

const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

/** Writes `ca.pem`, `origin.pem` (leaf) and `origin.key` into `dir` for `names` (DNS or IP). */
export function makeTlsMaterial(dir: string, names: readonly string[]): TlsMaterial {
  const caPath = join(dir, 'ca.pem');
  const caKey = join(dir, 'ca.key');
  const certPath = join(dir, 'origin.pem');
  const keyPath = join(dir, 'origin.key');
  const csr = join(dir, 'origin.csr');
  const ext = join(dir, 'origin.ext');
  // Short validity: the material lives as long as one run.
  openssl(['req', '-x509', ...EC_KEY, '-days', '2', '-subj', '/CN=getlist bench origins CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
    '-keyout', caKey, '-out', caPath]);
  openssl(['req', '-new', ...EC_KEY, '-subj', `/CN=${names[0] ?? 'localhost'}`, '-keyout', keyPath, '-out', csr]);
  const san = [...new Set(names)].map((n) => (isIP(n) ? `IP:${n}` : `DNS:${n}`)).join(',');
  writeFileSync(ext, [
    `subjectAltName=${san}`,
    'basicConstraints=critical,CA:FALSE',
    'keyUsage=critical,digitalSignature',
    'extendedKeyUsage=serverAuth',
    '',
  ].join('\n'));
  openssl(['x509', '-req', '-in', csr, '-CA', caPath, '-CAkey', caKey, '-CAcreateserial', '-days', '2',
    '-extfile', ext, '-out', certPath]);
  const caPem = readFileSync(caPath, 'utf8');
  return { caPem, caPath, certPath, keyPath, spkiHash: spkiHash(readFileSync(certPath, 'utf8')), caSpkiHash: spkiHash(caPem) };
}
