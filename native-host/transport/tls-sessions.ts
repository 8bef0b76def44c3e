/**
 * The TLS sessions a client may resume from, per host:port: the latest one each server gave
 * (RFC 8446 §4.6.1: a TLS 1.3 server sends its tickets after the handshake), the least recently
 * kept dropped past `max`. Held in memory only, never written anywhere, as browsers keep theirs:
 * a ticket is a secret that resumes the session it came from.
 *
 * A connector keeps its own by default, so a fresh connector is a fresh pool. A returning visitor's
 * runs share one (`getlist load --revisit`): a browser that loaded a page resumes its sessions when
 * the user comes back, and the server then skips its certificate and its signature.
 */
export class TlsSessions {
  private readonly byHost = new Map<string, Buffer>();

  constructor(private readonly max = MAX_KEPT_SESSIONS) {}

  get(host: string): Buffer | undefined {
    return this.byHost.get(host);
  }

  keep(host: string, session: Buffer): void {
    this.byHost.delete(host);
    this.byHost.set(host, session);
    if (this.byHost.size > this.max) {
      const oldest = this.byHost.keys().next();
      if (!oldest.done) this.byHost.delete(oldest.value);
    }
  }

  get size(): number {
    return this.byHost.size;
  }
}

const MAX_KEPT_SESSIONS = 100;
