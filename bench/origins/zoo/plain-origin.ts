/**
 * The zoo's bare origin: a Node `net` server that answers HTTP/1.1 GET and HEAD from its docroot
 * with a status line and `Content-Length` and no other header — no `Connection: keep-alive`, no
 * `Content-Type`, no `Date` — keeping the connection open and answering pipelined requests in
 * order. It is what a minimal embedded or hand-written server says, the least a client can learn
 * from. It runs as its own process (in the server's namespace on the link), from a script this
 * module writes into the run's dir, so it needs no build.
 */
import type { ZooConfigInput, ZooLaunch } from './zoo-types';

const SCRIPT = String.raw`'use strict';
const net = require('node:net');
const fs = require('node:fs');
const path = require('node:path');
const [config] = process.argv.slice(2);
const { listeners, accessLogPath } = JSON.parse(fs.readFileSync(config, 'utf8'));
const log = fs.openSync(accessLogPath, 'a');
let connections = 0;
function answer(root, method, target) {
  const file = path.join(root, path.normalize(decodeURIComponent(target.split('?')[0])).replace(/^(\.\.[/\\])+/, ''));
  try {
    const body = fs.statSync(file).isFile() ? fs.readFileSync(file) : undefined;
    if (body) return { status: 200, reason: 'OK', body: method === 'HEAD' ? Buffer.alloc(0) : body, length: body.length };
  } catch {}
  const body = Buffer.from('not found\n');
  return { status: 404, reason: 'Not Found', body: method === 'HEAD' ? Buffer.alloc(0) : body, length: body.length };
}
for (const l of listeners) {
  net.createServer((socket) => {
    const id = ++connections;
    let buffered = Buffer.alloc(0);
    socket.on('error', () => {});
    socket.on('data', (chunk) => {
      buffered = Buffer.concat([buffered, chunk]);
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffered.subarray(0, end).toString('latin1');
        buffered = buffered.subarray(end + 4);
        const [method = '', target = '/', protocol = ''] = (head.split('\r\n')[0] || '').split(' ');
        const r = answer(l.root, method, target);
        socket.write(Buffer.concat([Buffer.from('HTTP/1.1 ' + r.status + ' ' + r.reason + '\r\nContent-Length: ' + r.length + '\r\n\r\n'), r.body]));
        fs.writeSync(log, (Date.now() / 1000).toFixed(3) + ' ' + l.origin + ' ' + l.port + ' ' + id + ' ' + protocol + ' ' + r.status + ' ' + r.body.length + ' "' + method + ' ' + target.split('?')[0] + '"\n');
      }
    });
  }).listen(l.port, l.address);
}
`;

export function plainOriginScript(): string {
  return SCRIPT;
}

export function plainOriginConfig(c: ZooConfigInput): string {
  return JSON.stringify({ listeners: c.listeners, accessLogPath: c.accessLogPath });
}

export function plainOriginLaunch(scriptPath: string, configPath: string): ZooLaunch {
  return { command: process.execPath, args: [scriptPath, configPath] };
}
