import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testCert } from '../support/tls-cert';
import { buildChildScript } from '../support/build-child';

/**
 * `--ca` (and a replay's `caFile`) adds a CA to the system's roots: a page of a local site whose
 * fonts come from a public CDN must reach both. A process run with `--use-openssl-ca` takes its
 * roots from OpenSSL's store, which `SSL_CERT_FILE` names, so a certificate issued there stands in
 * for a public one; each case runs in a process of its own (test/support/connector-child.ts).
 */
describe('the user\'s CA is trusted besides the system\'s roots', () => {
  let dir: string;
  let child: string;
  const servers: Server[] = [];
  let local: string;
  let publicSite: string;
  const own = testCert('getlist local site');
  const root = testCert('getlist stand-in root');

  const listen = async (cert: { key: string; cert: string }): Promise<string> => {
    const server = createServer({ key: cert.key, cert: cert.cert }, (s) => s.end());
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, 'localhost', r));
    return `https://localhost:${(server.address() as { port: number }).port}`;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gl-ca-trust-'));
    child = join(dir, 'connector-child.js');
    buildChildScript(join(__dirname, '..', 'support', 'connector-child.ts'), child);
    writeFileSync(join(dir, 'own.pem'), own.cert);
    writeFileSync(join(dir, 'root.pem'), root.cert);
    writeFileSync(join(dir, 'none.pem'), '');
    local = await listen(own);
    publicSite = await listen(root);
  });

  afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    rmSync(dir, { recursive: true, force: true });
  });

  // Not spawnSync: the servers run in this process's loop.
  const run = async (extraRoots: boolean, connectIn: 'loop' | 'timer'): Promise<Array<{ ok: boolean; error?: string }>> => {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, GL_CA_FILE: join(dir, 'own.pem'), GL_ORIGINS: JSON.stringify([local, publicSite]), GL_CONNECT_IN: connectIn };
    // Without it, an empty store: the stand-in root is not among Node's bundled ones either.
    env.SSL_CERT_FILE = extraRoots ? join(dir, 'root.pem') : join(dir, 'none.pem');
    const c = spawn(process.execPath, ['--use-openssl-ca', child], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    c.stdout.on('data', (b: Buffer) => (out += String(b)));
    const code = await new Promise((r) => c.on('close', r));
    expect(code).toBe(0);
    return JSON.parse(out.trim()) as Array<{ ok: boolean; error?: string }>;
  };

  test.each(['loop', 'timer'] as const)('connecting in the %s: the site of the user\'s CA and one of a system root both verify', async (connectIn) => {
    expect((await run(true, connectIn)).map((x) => x.ok)).toEqual([true, true]);
  });

  test('a certificate of neither is refused, as the certificate error it is', async () => {
    const [a, b] = await run(false, 'loop');
    expect(a?.ok).toBe(true);
    expect(b?.ok).toBe(false);
    expect(b?.error).toMatch(/CERT|certificate/i);
  });
});
