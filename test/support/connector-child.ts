/**
 * A process of its own for tests of the connector as a process sees it: a TimingConnector
 * (trusting the CA in `GL_CA_FILE`, if given; connecting in `GL_CONNECT_IN`) opens each origin of
 * `GL_ORIGINS` (JSON), prints as JSON which handshakes succeeded, and exits at once. Its own
 * environment can stand in for the system's (`--use-openssl-ca` with `SSL_CERT_FILE`).
 */
import { readFileSync } from 'node:fs';
import { TimingConnector } from '../../native-host/transport/timing-connector';

async function main(): Promise<void> {
  const ca = process.env.GL_CA_FILE ? readFileSync(process.env.GL_CA_FILE, 'utf8') : undefined;
  const origins = JSON.parse(process.env.GL_ORIGINS ?? '[]') as string[];
  const connectIn = process.env.GL_CONNECT_IN === 'timer' ? 'timer' : 'loop';
  const connector = new TimingConnector({ ...(ca !== undefined ? { ca } : {}), connectIn, timeoutMs: 5_000 });
  const out: Array<{ origin: string; ok: boolean; error?: string }> = [];
  let id = 0;
  for (const origin of origins) {
    try {
      const { socket } = await connector.open(origin, ++id);
      socket.destroy();
      out.push({ origin, ok: true });
    } catch (err) {
      out.push({ origin, ok: false, error: String((err as { code?: string }).code ?? (err as Error).message) });
    }
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
  process.exit(0);
}

void main();
