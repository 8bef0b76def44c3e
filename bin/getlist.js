#!/usr/bin/env node
'use strict';
// Thin launcher: the CLI is bundled by `npm run build` into dist/getlist.js, and loaded through a
// V8 code cache (code-cache.js).
const path = require('node:path');
const fs = require('node:fs');
const { loadBundle } = require('./code-cache.js');
const entry = path.join(__dirname, '..', 'dist', 'getlist.js');
if (!fs.existsSync(entry)) {
  process.stderr.write('getlist: E_NOT_BUILT: dist/getlist.js is missing; run `npm run build` first.\n');
  process.exit(2);
}
const argv = process.argv.slice(2);
loadBundle(entry, argv).exports.main(argv).then(
  (code) => { process.exitCode = code; },
  (err) => { process.stderr.write(`getlist: E_INTERNAL: ${err && err.stack || err}\n`); process.exitCode = 70; },
);
