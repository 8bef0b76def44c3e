import { TlsSessions } from './tls-sessions';

describe('TlsSessions', () => {
  test('keeps the latest session per host:port', () => {
    const s = new TlsSessions();
    s.keep('a.test:443', Buffer.from('1'));
    s.keep('a.test:443', Buffer.from('2'));
    s.keep('a.test:8443', Buffer.from('3'));
    expect(s.get('a.test:443')?.toString()).toBe('2');
    expect(s.get('a.test:8443')?.toString()).toBe('3');
    expect(s.get('b.test:443')).toBeUndefined();
    expect(s.size).toBe(2);
  });

  test('past its limit it drops the host kept least recently, counting a renewed host as recent', () => {
    const s = new TlsSessions(2);
    s.keep('a', Buffer.from('a'));
    s.keep('b', Buffer.from('b'));
    s.keep('a', Buffer.from('a2'));
    s.keep('c', Buffer.from('c'));
    expect([s.get('a')?.toString(), s.get('b'), s.get('c')?.toString()]).toEqual(['a2', undefined, 'c']);
    expect(s.size).toBe(2);
  });
});
