/**
 * The ALPN list a connection that may speak h2 offers: `h2` first, as Chromium and Firefox offer
 * it. RFC 7301 §3.2 lets the server pick by its own preference or by the client's order; servers
 * that follow the client's order (lighttpd's `mod_openssl`) answer the first protocol offered that
 * they speak, so the order decides the protocol there.
 */
export const H2_FIRST_ALPN: readonly string[] = ['h2', 'http/1.1'];
