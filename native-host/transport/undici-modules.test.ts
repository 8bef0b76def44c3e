import * as undici from 'undici';
import Client from 'undici/lib/dispatcher/client';
import buildConnector from 'undici/lib/core/connect';

// The transport loads these two modules by path to skip undici's index (undici-modules.d.ts); an
// undici release that moves or splits them must fail here, not in a user's start.
test("undici's Client and buildConnector modules are the index's own exports", () => {
  expect(Client).toBe(undici.Client);
  expect(buildConnector).toBe(undici.buildConnector);
});
