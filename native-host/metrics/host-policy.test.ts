import { hostPolicy, isAllowedHost, isHostName, isLoopbackAddress } from './host-policy';

describe('isAllowedHost', () => {
  const loopback = hostPolicy('127.0.0.1', 9464, []);
  test.each([
    ['127.0.0.1:9464', true],
    ['localhost:9464', true],
    ['LOCALHOST:9464', true],
    ['[::1]:9464', true],
    ['127.0.0.1:9465', false], // another port
    ['127.0.0.1', false], // port 80
    ['evil.example:9464', false], // a rebinding page's own name
    ['evil.example', false],
    ['127.0.0.1.evil.example:9464', false],
    ['10.0.0.5:9464', false], // not this address
    ['::1:9464', false], // unbracketed IPv6
    ['[evil]:9464', false],
    ['', false],
    [undefined, false],
  ])('loopback listener, Host %p → %p', (host, ok) => {
    expect(isAllowedHost(host, loopback)).toBe(ok);
  });

  test('every address (--allow-remote on 0.0.0.0): IP literals, localhost and the names given', () => {
    const p = hostPolicy('0.0.0.0', 9464, ['dev-box-1', 'Metrics.Example.com']);
    for (const h of ['192.168.1.20:9464', '[2001:db8::1]:9464', 'localhost:9464', 'dev-box-1:9464', 'metrics.example.com:9464']) expect(isAllowedHost(h, p)).toBe(true);
    for (const h of ['dev-box-2:9464', 'evil.example:9464', '192.168.1.20:80']) expect(isAllowedHost(h, p)).toBe(false);
  });

  test('one LAN address: that address and the names given, not other literals', () => {
    const p = hostPolicy('192.168.1.20', 9464, ['dev-box-1']);
    expect(isAllowedHost('192.168.1.20:9464', p)).toBe(true);
    expect(isAllowedHost('dev-box-1:9464', p)).toBe(true);
    expect(isAllowedHost('192.168.1.21:9464', p)).toBe(false);
    expect(isAllowedHost('localhost:9464', p)).toBe(false);
  });
});

test('isLoopbackAddress and isHostName', () => {
  expect(['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1'].every(isLoopbackAddress)).toBe(true);
  expect(['0.0.0.0', '::', '10.0.0.1', '::2', 'localhost'].some(isLoopbackAddress)).toBe(false);
  expect(['dev-box-1', 'a.b.example', 'X1'].every(isHostName)).toBe(true);
  expect(['', 'a:80', '10.0.0.1', '-a', 'a..b', 'a_b', 'a/b'].some(isHostName)).toBe(false);
});
