// Runs inside a fresh network namespace (test/cli/load-private-network.test.ts): a page on a
// private address (198.18.0.1, RFC 2544, only inside this namespace) names an image on loopback,
// where a counting listener waits. Runs `getlist load` on the page and prints, as JSON, what the
// load reported and how many connections the loopback listener accepted.
'use strict';
/* global Buffer */
const http = require('node:http');
const net = require('node:net');
const { execFile } = require('node:child_process');

const [bin, ...flags] = process.argv.slice(2);
let accepts = 0;
const counting = net.createServer((s) => {
  accepts += 1;
  s.on('error', () => undefined);
  s.destroy();
});
counting.listen(0, '127.0.0.1', () => {
  const loopback = `http://127.0.0.1:${counting.address().port}`;
  const page = http.createServer((req, res) => {
    const html = `<!doctype html><link rel=preconnect href="${loopback}"><img src="${loopback}/x.png" width=10 height=10><img src="/ok.png" width=10 height=10>`;
    const body = req.url === '/page.html' ? html : 'ok';
    res.writeHead(200, { 'content-type': req.url === '/page.html' ? 'text/html' : 'image/png', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  page.listen(0, '198.18.0.1', () => {
    const url = `http://198.18.0.1:${page.address().port}/page.html`;
    execFile(process.execPath, [bin, 'load', url, '--json', '--timeout', '5000', '--idle-timeout', '300', ...flags], (err, stdout, stderr) => {
      process.stdout.write(JSON.stringify({ exit: err ? err.code : 0, stdout, stderr, accepts, loopback }));
      counting.close();
      page.close();
    });
  });
});
