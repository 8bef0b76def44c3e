/*
 * undici's own modules for the two parts the transport uses: `Client` (undici-transport.ts) and
 * `buildConnector` (timing-connector.ts). Imported by these paths, not through undici's index,
 * because the index also evaluates fetch, WebSocket, cookies, the mock agents and the cache
 * interceptors, and its cookie module loads Node's own bundled undici: work every process start
 * paid for nothing the transport calls (docs/cli.md, "What a start costs"). undici has no
 * `exports` map, so these paths resolve; undici-modules.test.ts fails if either stops being the
 * index's own export.
 */
declare module 'undici/lib/dispatcher/client' {
  import type { Client as UndiciClient } from 'undici';
  const Client: typeof UndiciClient;
  type Client = UndiciClient;
  export = Client;
}

declare module 'undici/lib/core/connect' {
  import type { buildConnector as undiciBuildConnector } from 'undici';
  const buildConnector: typeof undiciBuildConnector;
  namespace buildConnector {
    type BuildOptions = undiciBuildConnector.BuildOptions;
    type Options = undiciBuildConnector.Options;
    type Callback = undiciBuildConnector.Callback;
    type connector = undiciBuildConnector.connector;
  }
  export = buildConnector;
}
