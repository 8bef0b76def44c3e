import { createSecureContext, type SecureContext } from 'node:tls';

/**
 * The TLS context a connector's connections share: the system's trusted roots plus the user's CA
 * (`--ca`, a replay's `caFile`).
 *
 * Node's own `ca` option replaces the default roots ("Mozilla's CAs are completely replaced when
 * CAs are explicitly specified", Node's tls docs), so a page of a local site whose fonts come from
 * a public CDN would fail on the CDN. The user's certificates are added to a context that already
 * holds the roots instead (`addCACert`, what Node does for each `ca` entry). Node gives such a
 * context a copy of the store of its own: its bundled roots, or OpenSSL's (`--use-openssl-ca`,
 * `SSL_CERT_FILE`), but not `NODE_EXTRA_CA_CERTS`, which only the shared store holds. Those are
 * not read again here: a whole system bundle named there, parsed at the start of every load, held
 * back its first connections (bench/README.md, "What holds a handshake").
 *
 * One context for all connections, not one per `tls.connect`: without `secureContext` each connect
 * builds a context of its own on this process's loop, paid while a revisit opens tens of them
 * together (bench/README.md, "What holds a handshake"). And one per CA in a process: its connectors
 * share it. A context holds no sessions a connection would resume from by itself (Node resumes a
 * client only from the `session` given to the connect), so each connector stays a fresh pool.
 * Per-connection settings (server name, session, ALPN, `rejectUnauthorized`) stay on the connect.
 */
export function trustContext(ca?: string | string[]): SecureContext {
  const pems = ca === undefined ? [] : Array.isArray(ca) ? ca : [ca];
  // A process's connectors (one per strategy and run) trust the same CA: build its context once.
  const key = pems.join('\n');
  if (last?.key === key) return last.context;
  const context = createSecureContext();
  for (const pem of pems) (context.context as { addCACert(pem: string): void }).addCACert(pem);
  last = { key, context };
  return context;
}

/** The context built last, by the CA text it trusts besides the roots. */
let last: { key: string; context: SecureContext } | undefined;
