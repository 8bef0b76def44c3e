import { parseZooAccessLog } from '../../bench/origins/zoo/zoo-access-log';

describe('zoo access logs read as the origins\' entries', () => {
  test('the zoo line: connections numbered by first appearance, requests counted per connection', () => {
    const text = [
      '1700000000.100 www.example.test 8080 5123 HTTP/1.1 200 4191 "GET /a.html"',
      '1700000000.101 www.example.test 8080 5124 HTTP/1.1 200 10 "GET /b.gif"',
      '1700000000.102 www.example.test 8080 5123 HTTP/1.1 200 0 "HEAD /c.gif"',
      'not a log line',
    ].join('\n');
    expect(parseZooAccessLog(text, 'zoo').map((e) => [e.connection, e.connectionRequests, e.method, e.path, e.bytes])).toEqual([
      [1, 1, 'GET', '/a.html', 4191], [2, 1, 'GET', '/b.gif', 10], [1, 2, 'HEAD', '/c.gif', 0],
    ]);
  });

  test('each member\'s spelling of h2, Traffic Server\'s path without its slash, varnish\'s listener name as the port', () => {
    const text = [
      '1.0 h p8080 1 HTTP/2 200 5 "GET /x"',
      '1.0 h - 2 http/2 200 - "GET y/z.css"',
      '1.0 h 443 3 http/1.1 304 - "GET /w"',
    ].join('\n');
    expect(parseZooAccessLog(text, 'zoo').map((e) => [e.port, e.protocol, e.path, e.bytes])).toEqual([
      [8080, 'HTTP/2.0', '/x', 5], [0, 'HTTP/2.0', '/y/z.css', 0], [443, 'HTTP/1.1', '/w', 0],
    ]);
  });

  test('lighttpd\'s h2 preface line (`PRI *`) is not a request', () => {
    const text = '1.0 h 443 9 HTTP/2.0 200 4 "GET /a"\n1.0 - 443 9 HTTP/2.0 100 8599 "PRI *"\n';
    expect(parseZooAccessLog(text, 'zoo').map((e) => e.method)).toEqual(['GET']);
  });

  test('Caddy\'s JSON: the client port names the connection, the query is dropped', () => {
    const line = (port: string, uri: string) => JSON.stringify({ ts: 1.5, status: 200, size: 7, request: { remote_port: port, proto: 'HTTP/2.0', method: 'GET', host: 'www.example.test:8443', uri } });
    const entries = parseZooAccessLog([line('4000', '/a?x=1'), line('4001', '/b'), line('4000', '/c'), '{"msg":"not an access line"}'].join('\n'), 'caddy');
    expect(entries.map((e) => [e.origin, e.port, e.connection, e.connectionRequests, e.protocol, e.path, e.bytes])).toEqual([
      ['www.example.test', 8443, 1, 1, 'HTTP/2.0', '/a', 7], ['www.example.test', 8443, 2, 1, 'HTTP/2.0', '/b', 7], ['www.example.test', 8443, 1, 2, 'HTTP/2.0', '/c', 7],
    ]);
  });
});
