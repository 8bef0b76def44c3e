import { addressSpaceOf, isBadPort, isMorePrivate, portOf } from './index';

describe('bad ports (Fetch §2.9 port blocking)', () => {
  test('the ports browsers refuse, and the default ports of the scheme', () => {
    for (const p of [0, 1, 25, 110, 143, 587, 6000, 6667, 10080]) expect(isBadPort(p)).toBe(true);
    for (const p of [80, 443, 8080, 8443, 3000, 26, 6670, 10081]) expect(isBadPort(p)).toBe(false);
    expect(portOf(new URL('http://a.test/'))).toBe(80);
    expect(portOf(new URL('https://a.test/'))).toBe(443);
    expect(portOf(new URL('http://a.test:25/'))).toBe(25);
    expect(portOf(new URL('https://a.test:443/'))).toBe(443);
  });
});

describe('address spaces (Private Network Access)', () => {
  test.each([
    ['127.0.0.1', 'local'], ['127.9.9.9', 'local'], ['::1', 'local'], ['[::1]', 'local'], ['0.0.0.0', 'local'], ['::ffff:127.0.0.1', 'local'],
    ['10.1.2.3', 'private'], ['172.16.0.1', 'private'], ['172.31.255.255', 'private'], ['192.168.1.1', 'private'],
    ['169.254.169.254', 'private'], ['100.64.0.1', 'private'], ['fd00::1', 'private'], ['fe80::1%eth0', 'private'], ['::ffff:10.0.0.1', 'private'],
    ['172.32.0.1', 'public'], ['8.8.8.8', 'public'], ['2001:db8::1', 'public'], ['100.128.0.1', 'public'], ['1::', 'public'],
  ])('%s is %s', (address, space) => {
    expect(addressSpaceOf(address)).toBe(space);
  });

  test('non-addresses are not classified', () => {
    for (const s of ['example.com', '1.2.3', '256.1.1.1', '1:2:3:4:5:6:7:8:9', 'a::b::c', '']) expect(addressSpaceOf(s)).toBeUndefined();
  });

  test('a target is refused only when more private than the page', () => {
    expect(isMorePrivate('local', 'public')).toBe(true);
    expect(isMorePrivate('private', 'public')).toBe(true);
    expect(isMorePrivate('local', 'private')).toBe(true);
    expect(isMorePrivate('public', 'local')).toBe(false);
    expect(isMorePrivate('private', 'private')).toBe(false);
  });
});
