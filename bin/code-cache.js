'use strict';
/*
 * Loads the bundled CLI (dist/getlist.js) through a V8 code cache kept in the user's cache folder.
 *
 * Compiling the bundle, and then each function the first time it runs, is most of what a `getlist`
 * process does before its first request, and a native host pays it each time a browser starts one.
 * V8 can serialize compiled code (`vm.Script#createCachedData`); taken after a command ran, the
 * cache also holds the functions that command compiled, so the next start runs them without
 * compiling (docs/cli.md, "What a start costs"). Node 20 has no built-in compile cache
 * (`module.enableCompileCache` is Node 22).
 *
 * One file per command, so a `load` starts from what `load` compiled. A file is written when the
 * command had none (or V8 refused it) and ended with exit code 0: once per command per build.
 * V8 refuses data from another V8 version or other flags, but of the source it checks only the
 * length: a bundle changed in place (a version bump) would run the old one's code. So the file's
 * name carries a hash of the bundle's bytes, with this Node's version, the launcher's path and the
 * process's flags: a rebuild or an upgrade starts a new file and removes the old one.
 * A cache is never required: any failure to read or write one only costs the compile.
 * GETLIST_CODE_CACHE=off turns it off.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const Module = require('node:module');
const os = require('node:os');
const path = require('node:path');
const vm = require('node:vm');

/** The folder for the caches, or undefined when they are off. */
function cacheDir(env = process.env, platform = process.platform, home = os.homedir()) {
  if (env.GETLIST_CODE_CACHE === 'off') return undefined;
  if (platform === 'win32') return path.join(env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), 'getlist', 'Cache', 'code');
  if (platform === 'darwin') return path.join(home, 'Library', 'Caches', 'getlist', 'code');
  // XDG Base Directory: a relative XDG_CACHE_HOME is invalid and ignored.
  const base = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(home, '.cache');
  return path.join(base, 'getlist', 'code');
}

/** The command's slot: its name when it looks like one, else `other` (help, version, a typo). */
function slotOf(argv) {
  const first = argv[0];
  return typeof first === 'string' && /^[a-z]{1,16}$/.test(first) ? first : 'other';
}

/**
 * `{ family, build, file }` for the bundle at `entry` (its bytes `code`) run as `argv[0]`: `family`
 * names every cache of this launcher, flags and Node, `build` those of this bundle (the files a new
 * build replaces), `file` this bundle's file for this command.
 */
function cacheName(entry, code, argv, execArgv = process.execArgv, env = process.env) {
  const hash = (parts) => crypto.createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 16);
  const family = `getlist-${hash([entry, process.version, process.arch, ...execArgv, env.NODE_OPTIONS || ''])}-`;
  const build = `${family}${crypto.createHash('sha256').update(code).digest('hex').slice(0, 16)}-`;
  return { family, build, file: `${build}${slotOf(argv)}.bin` };
}

/**
 * Compiles and runs the CommonJS bundle at `entry` as `require` would, with the cache for
 * `argv`'s command. Returns its exports and what became of the cache: `used`, `missing`,
 * `rejected` (V8 refused the file) or `off`.
 */
function loadBundle(entry, argv, env = process.env) {
  const code = fs.readFileSync(entry);
  const source = code.toString('utf8');
  const dir = cacheDir(env);
  let name;
  let cached;
  if (dir) {
    try {
      name = cacheName(entry, code, argv, process.execArgv, env);
      cached = fs.readFileSync(path.join(dir, name.file));
    } catch {
      cached = undefined; // no file yet, or unreadable: compiled as without a cache
    }
  }
  // CommonJS's own wrapper, so the bundle sees exports, require, module, __filename, __dirname.
  const wrapped = `(function (exports, require, module, __filename, __dirname) { ${source}\n});`;
  const script = new vm.Script(wrapped, {
    filename: entry,
    ...(cached ? { cachedData: cached } : {}),
    importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const state = !dir ? 'off' : !cached ? 'missing' : script.cachedDataRejected ? 'rejected' : 'used';
  if (name && state !== 'used') {
    process.once('exit', (code) => {
      if (code === 0) writeCache(dir, name, script);
    });
  }
  const mod = { exports: {}, id: entry, filename: entry, loaded: false };
  script.runInThisContext()(mod.exports, Module.createRequire(entry), mod, entry, path.dirname(entry));
  mod.loaded = true;
  return { exports: mod.exports, cache: state };
}

/** Writes the cache whole or not at all (a rename), and removes this family's files of older builds. */
function writeCache(dir, name, script) {
  try {
    const data = script.createCachedData();
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const tmp = path.join(dir, `${name.file}.${process.pid}.tmp`);
    fs.writeFileSync(tmp, data, { mode: 0o600 });
    fs.renameSync(tmp, path.join(dir, name.file));
    for (const f of fs.readdirSync(dir)) {
      if (f.startsWith(name.family) && !f.startsWith(name.build) && f.endsWith('.bin')) fs.rmSync(path.join(dir, f), { force: true });
    }
  } catch {
    // A cache that cannot be written only costs the next start its compile.
  }
}

module.exports = { loadBundle, cacheDir, slotOf };
