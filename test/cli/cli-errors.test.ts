import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * How the built CLI (`bin/getlist.js` → dist/getlist.js; needs `npm run build`) reports failures:
 * any error with a string code, from whichever layer threw it, is one `getlist: CODE: message`
 * line (exit 2 for E_USAGE, else 1); only an error without a code is a bug, printed with its stack
 * (exit 70). The "bugs" and foreign errors are planted from outside with `node -r`, which replaces
 * `fs.existsSync` for one marked path, so the product carries no test hook.
 */

const BIN = path.join(__dirname, '..', '..', 'bin', 'getlist.js');
let tmp: string;

beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'getlist-cli-errors-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function cli(argv: string[], preload?: string) {
  const args = preload === undefined ? [BIN, ...argv] : ['-r', preload, BIN, ...argv];
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', cwd: tmp, env: { PATH: '/usr/bin:/bin', HOME: tmp, GETLIST_DATA_DIR: path.join(tmp, 'data') } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, lines: r.stderr.split('\n').filter((l) => l !== '') };
}

/** A preload that makes `fs.existsSync(<path containing "planted">)` throw what `thrown` evaluates to. */
function plant(name: string, thrown: string): string {
  const file = path.join(tmp, `${name}.js`);
  writeFileSync(file, `const fs = require('node:fs');
const real = fs.existsSync;
fs.existsSync = (p) => { if (String(p).includes('planted')) throw ${thrown}; return real(p); };
`);
  return file;
}

describe('the CLI prints every coded error as one line', () => {
  test('a store error no CLI code wraps (E_DATA_DIR from --record) is one line, exit 1', () => {
    const notADir = path.join(tmp, 'a-file');
    writeFileSync(notADir, 'not a folder');
    const r = cli(['load', 'http://127.0.0.1:1/', '--record', '--data-dir', notADir]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.lines).toHaveLength(1);
    expect(r.lines[0]).toMatch(new RegExp(`^getlist: E_DATA_DIR: cannot use ${notADir}/handshakes .*\\(ENOTDIR\\)`));
  });

  test('a usage error is one line, exit 2', () => {
    const r = cli(['load', 'http://127.0.0.1:1/', '--repeat', 'many']);
    expect(r.status).toBe(2);
    expect(r.lines).toEqual([expect.stringMatching(/^getlist: E_USAGE: --repeat\b.*"many"/)]);
  });

  test('a Node error with a code (EACCES) is one line with its code, exit 1, no stack', () => {
    const preload = plant('eacces', `Object.assign(new Error('EACCES: permission denied, stat ' + p), { code: 'EACCES' })`);
    const r = cli(['stats', '--data-dir', path.join(tmp, 'planted-eacces')], preload);
    expect(r.status).toBe(1);
    expect(r.lines).toEqual([`getlist: EACCES: EACCES: permission denied, stat ${path.join(tmp, 'planted-eacces', 'handshakes')}`]);
  });

  test('a coded error from another bundle (a plain {code, message}, no class) is one line, exit 1', () => {
    const preload = plant('foreign', `{ code: 'E_FOREIGN', message: 'thrown by another bundle' }`);
    const r = cli(['stats', '--data-dir', path.join(tmp, 'planted-foreign')], preload);
    expect(r.status).toBe(1);
    expect(r.lines).toEqual(['getlist: E_FOREIGN: thrown by another bundle']);
  });

  test('an error without a code is a bug: E_INTERNAL, the stack down to where it was thrown, exit 70', () => {
    const preload = plant('bug', `new TypeError('planted bug')`);
    const r = cli(['stats', '--data-dir', path.join(tmp, 'planted-bug')], preload);
    expect(r.status).toBe(70);
    expect(r.stdout).toBe('');
    expect(r.lines[0]).toBe('getlist: E_INTERNAL: an unexpected error, which is a bug in getlist; please report it with this output:');
    expect(r.lines[1]).toBe('TypeError: planted bug');
    expect(r.lines[2]).toContain(`${preload}:3`);
    expect(r.lines.some((l) => /at readStore \(.*dist\/getlist\.js:\d+:\d+\)/.test(l))).toBe(true);
  });
});
