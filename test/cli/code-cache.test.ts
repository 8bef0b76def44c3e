import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// What a `getlist` process loads before its command runs, observed in real child processes: the
// built bundle (npm test builds before Jest) and the launcher's code cache (bin/code-cache.js;
// docs/cli.md, "What a start costs").
const root = path.join(__dirname, '..', '..');
const bundle = path.join(root, 'dist', 'getlist.js');
const launcher = path.join(root, 'bin', 'code-cache.js');

let home: string;
beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'getlist-code-cache-'));
});
afterEach(() => {
  chmodSync(home, 0o700);
  rmSync(home, { recursive: true, force: true });
});

/**
 * Runs `main(argv)` of the bundle at `entry` through the launcher's loader in a fresh Node; returns
 * the cache state it reported, the command's output and its exit status.
 */
function launch(argv: string[], env: NodeJS.ProcessEnv = {}, entry = bundle) {
  const program = `
    const { loadBundle } = require(${JSON.stringify(launcher)});
    const argv = ${JSON.stringify(argv)};
    const { exports, cache } = loadBundle(${JSON.stringify(entry)}, argv);
    process.stderr.write('cache=' + cache + '\\n');
    exports.main(argv).then((code) => { process.exitCode = code; });
  `;
  const r = spawnSync(process.execPath, ['-e', program], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, ...env } });
  return { status: r.status, out: r.stdout, cache: /cache=(\w+)/.exec(r.stderr)?.[1], err: r.stderr };
}

const codeDir = () => path.join(home, '.cache', 'getlist', 'code');
const cacheFiles = () => (existsSync(codeDir()) ? readdirSync(codeDir()).sort() : []);

test('loading the CLI bundle loads neither the store\'s native addons nor Node\'s own undici', () => {
  const program = `
    require(${JSON.stringify(bundle)});
    console.log(JSON.stringify({
      builtins: process.moduleLoadList.filter((m) => m.includes('undici')),
      addons: Object.keys(require.cache).filter((k) => /[\\\\/](lmdb|classic-level|msgpackr)[\\\\/]/.test(k)),
    }));
  `;
  const r = spawnSync(process.execPath, ['-e', program], { encoding: 'utf8' });
  expect(r.status).toBe(0);
  expect(JSON.parse(r.stdout)).toEqual({ builtins: [], addons: [] });
});

test('the first run of a command writes its cache, and the next run of it compiles from it', () => {
  const first = launch(['--version']);
  expect(first).toMatchObject({ status: 0, cache: 'missing' });
  expect(cacheFiles()).toEqual([expect.stringMatching(/^getlist-[0-9a-f]{16}-[0-9a-f]{16}-other\.bin$/)]);
  expect(statSync(path.join(codeDir(), cacheFiles()[0] as string)).mode & 0o777).toBe(0o600);
  const second = launch(['--version']);
  expect(second).toMatchObject({ status: 0, cache: 'used', out: first.out });
  // Another command has its own file.
  expect(launch(['help'])).toMatchObject({ status: 0, cache: 'missing' });
  expect(cacheFiles()).toHaveLength(2);
  expect(launch(['help'])).toMatchObject({ status: 0, cache: 'used' });
});

test('a damaged cache is refused by V8, the command still runs, and the file is written again', () => {
  launch(['--version']);
  const [file] = cacheFiles();
  writeFileSync(path.join(codeDir(), file as string), Buffer.alloc(4096, 7));
  const damaged = launch(['--version']);
  expect(damaged).toMatchObject({ status: 0, cache: 'rejected', out: '0.1.0\n' });
  expect(launch(['--version'])).toMatchObject({ status: 0, cache: 'used', out: '0.1.0\n' });
});

test('a changed bundle starts a new cache and removes the old one, even at the same size and time', () => {
  const copy = path.join(home, 'dist', 'getlist.js');
  mkdirSync(path.dirname(copy));
  copyFileSync(bundle, copy);
  const { mtime } = statSync(copy);
  expect(launch(['--version'], {}, copy)).toMatchObject({ status: 0, cache: 'missing', out: '0.1.0\n' });
  const [before] = cacheFiles();
  expect(launch(['--version'], {}, copy)).toMatchObject({ cache: 'used' });
  // A version bump in place: same length, and npm gives packed files one fixed time. V8 checks the
  // source's length only, so the old cache would still print the old version.
  const source = readFileSync(copy, 'utf8');
  expect(source).toContain('VERSION = "0.1.0"');
  writeFileSync(copy, source.replace('VERSION = "0.1.0"', 'VERSION = "0.1.1"'));
  utimesSync(copy, mtime, mtime);
  expect(launch(['--version'], {}, copy)).toMatchObject({ status: 0, cache: 'missing', out: '0.1.1\n' });
  expect(launch(['--version'], {}, copy)).toMatchObject({ status: 0, cache: 'used', out: '0.1.1\n' });
  const after = cacheFiles();
  expect(after).toHaveLength(1);
  expect(after[0]).not.toBe(before);
});

test('a command that fails writes no cache, and GETLIST_CODE_CACHE=off writes none at all', () => {
  expect(launch(['no-such-command'])).toMatchObject({ status: 2 });
  expect(cacheFiles()).toEqual([]);
  expect(launch(['--version'], { GETLIST_CODE_CACHE: 'off' })).toMatchObject({ status: 0, cache: 'off', out: '0.1.0\n' });
  expect(existsSync(path.join(home, '.cache'))).toBe(false);
});

test('XDG_CACHE_HOME places the cache; a cache folder that cannot be written costs nothing but the cache', () => {
  const xdg = path.join(home, 'xdg');
  expect(launch(['--version'], { XDG_CACHE_HOME: xdg })).toMatchObject({ status: 0, cache: 'missing' });
  expect(readdirSync(path.join(xdg, 'getlist', 'code'))).toHaveLength(1);
  // A file where the cache folder would be: nothing can be read or written there.
  writeFileSync(path.join(home, '.cache'), 'not a folder');
  for (let i = 0; i < 2; i++) expect(launch(['--version'])).toMatchObject({ status: 0, cache: 'missing', out: '0.1.0\n' });
});

test('the getlist launcher runs commands through the cache', () => {
  const bin = path.join(root, 'bin', 'getlist.js');
  const run = () => spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home } });
  expect(run()).toMatchObject({ status: 0, stdout: '0.1.0\n' });
  expect(cacheFiles()).toEqual([expect.stringMatching(/-other\.bin$/)]);
  expect(run()).toMatchObject({ status: 0, stdout: '0.1.0\n' });
});
