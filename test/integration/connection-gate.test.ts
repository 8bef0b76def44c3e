import { connectWithCheck, gatedLookup } from '../../native-host/transport/connection-gate';
import { sharedHostCache } from '../../native-host/transport/host-cache';
import { parseConnectTo, parseResolve } from '../../native-host/transport/host-mapping';
import { privateNetworkCheck } from '../../native-host/transport/private-network';
import { TimingConnector } from '../../native-host/transport/timing-connector';
import { startBadPortListener, startCountingListener, type CountingListener } from '../support/counting-listener';

/**
 * The connection gate at the connector, where every connection the host and the CLI open passes
 * (test/connection-gate-lint.test.ts proves there is no other way): a counting listener is the
 * judge of what reached the network.
 */

let listeners: CountingListener[] = [];
afterEach(async () => {
  await Promise.all(listeners.map((l) => l.close()));
  listeners = [];
});

async function listen(start: () => Promise<CountingListener>): Promise<CountingListener> {
  const l = await start();
  listeners.push(l);
  return l;
}

async function accepted(l: CountingListener, n: number): Promise<void> {
  for (let i = 0; i < 200 && l.accepts() < n; i++) await new Promise((r) => setTimeout(r, 5));
}

const PUBLIC_PAGE = 'http://203.0.113.7/page.html';

test('a bad port is refused with E_UNSAFE_PORT before any attempt: by literal, by name, over TLS, and where a mapping lands', async () => {
  const bad = await listen(startBadPortListener);
  const plain = new TimingConnector();
  const targets = [bad.origin('http'), bad.origin('https'), `http://localhost:${bad.port}`, `https://localhost:${bad.port}`];
  for (const [i, origin] of targets.entries()) {
    await expect(plain.open(origin, i)).rejects.toMatchObject({ code: 'E_UNSAFE_PORT' });
  }
  const mapped = new TimingConnector({ hostMappings: [parseConnectTo(`shop.example:443:127.0.0.1:${bad.port}`), parseResolve(`news.example:${bad.port}:127.0.0.1`)] });
  await expect(mapped.open('https://shop.example', 10)).rejects.toMatchObject({ code: 'E_UNSAFE_PORT' });
  await expect(mapped.open(`http://news.example:${bad.port}`, 11)).rejects.toMatchObject({ code: 'E_UNSAFE_PORT' });
  await new Promise((r) => setTimeout(r, 50));
  expect(bad.accepts()).toBe(0);

  // The listener does count: allowed (the CLI's --allow-unsafe-ports), the same target connects.
  const allowed = new TimingConnector({ allowUnsafePorts: true });
  const { socket } = await allowed.open(bad.origin('http'), 20);
  socket.destroy();
  await accepted(bad, 1);
  expect(bad.accepts()).toBe(1);
});

test('a public page may not reach loopback: refused before the SYN, by literal, by a name, by a mapping, over TLS', async () => {
  const local = await listen(() => startCountingListener());
  const check = await privateNetworkCheck(PUBLIC_PAGE, false);
  const connector = new TimingConnector({ addressCheck: check, hostMappings: [parseResolve(`intranet.example:${local.port}:127.0.0.1`)] });
  const targets = [local.origin('http'), local.origin('https'), `http://localhost:${local.port}`, `https://localhost:${local.port}`, `http://intranet.example:${local.port}`];
  for (const [i, origin] of targets.entries()) {
    await expect(connector.open(origin, i)).rejects.toMatchObject({ code: 'E_PRIVATE_NETWORK' });
  }
  await new Promise((r) => setTimeout(r, 50));
  // Nothing reached the listener, so "refused" says nothing about whether the port is open.
  expect(local.accepts()).toBe(0);

  // The same connector without a check (a local page), or a check that allows it, connects.
  const { socket } = await new TimingConnector({ addressCheck: await privateNetworkCheck(`${local.origin('http')}/`, false) }).open(local.origin('http'), 9);
  socket.destroy();
  await accepted(local, 1);
  expect(local.accepts()).toBe(1);
});

test('DNS rebinding: an address allowed at the lookup but refused once connected is dropped before a byte is sent', async () => {
  const local = await listen(() => startCountingListener());
  // The name's answer changes between the lookup and the connection: the check allows the first
  // time it sees the address (the lookup) and refuses the address actually reached.
  const seen = new Map<string, number>();
  const rebinding = (address: string) => {
    const n = (seen.get(address) ?? 0) + 1;
    seen.set(address, n);
    return n === 1 ? undefined : Object.assign(new Error(`${address} is private`), { code: 'E_PRIVATE_NETWORK' });
  };
  const connector = new TimingConnector({ addressCheck: rebinding });
  await expect(connector.open(`https://localhost:${local.port}`, 1)).rejects.toMatchObject({ code: 'E_PRIVATE_NETWORK' });
  await accepted(local, 1);
  await new Promise((r) => setTimeout(r, 50));
  expect(local.accepts()).toBe(1);
  expect(local.bytes()).toBe(0); // no ClientHello
});

test('the gate lookup fails closed when called outside a gated connect', async () => {
  const err = await new Promise<unknown>((resolve) => gatedLookup('localhost', { all: true }, (e) => resolve(e)));
  expect(err).toMatchObject({ code: 'E_PRIVATE_NETWORK' });
});

test("a page's address-space check and its connections ask the host cache one question: the connect takes the check's answer", async () => {
  const local = await listen(() => startCountingListener());
  const lookups = jest.spyOn(sharedHostCache(), 'lookupAll');
  try {
    const page = `http://localhost:${local.port}/`;
    const check = await privateNetworkCheck(page, false);
    const { socket } = await new TimingConnector({ addressCheck: check, connectIn: 'loop' }).open(`http://localhost:${local.port}`, 1);
    socket.destroy();
    expect(lookups).toHaveBeenCalledTimes(2);
    const [checkAsked, connectAsked] = lookups.mock.calls;
    expect(connectAsked).toEqual(checkAsked);
    expect(await lookups.mock.results[1]?.value).toBe(await lookups.mock.results[0]?.value);
    await accepted(local, 1);
    expect(local.accepts()).toBe(1);
  } finally {
    lookups.mockRestore();
  }
});

test('a caller that changes its answer does not change the next caller\'s: each gets a copy of the cached one', async () => {
  const ask = () => new Promise<Array<{ address: string; family: number }>>((resolve, reject) => {
    connectWithCheck(undefined, () => gatedLookup('localhost', { all: true }, (e, a) => (e ? reject(e) : resolve(a as unknown as Array<{ address: string; family: number }>))));
  });
  const first = await ask();
  const kept = first.map((a) => ({ ...a }));
  expect(kept.length).toBeGreaterThan(0);
  first.splice(0, first.length, { address: '198.18.0.99', family: 4 });
  (first[0] as { address: string }).address = '198.18.0.98';
  expect(await ask()).toEqual(kept);
});
