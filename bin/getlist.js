#!/usr/bin/env node
'use strict';
// Thin launcher: the CLI is bundled by `npm run build` into dist/getlist.js.
const path = require('node:path');
const fs = require('node:fs');
const entry = path.join(__dirname, '..', 'dist', 'getlist.js');
if (!fs.existsSync(entry)) {
  process.stderr.write('getlist: E_NOT_BUILT: dist/getlist.js is missing; run `npm run build` first.\n');
  process.exit(2);
}
require(entry).main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (err) => { process.stderr.write(`getlist: E_INTERNAL: ${err && err.stack || err}\n`); process.exitCode = 70; },
);
