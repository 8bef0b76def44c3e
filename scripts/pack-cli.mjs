// `npm run pack:cli [-- --out DIR]`: packs the getlist command as an npm tarball that installs
// anywhere with `npm install -g ./getlist-<version>.tgz` — no checkout, no registry: the CLI is
// the esbuild bundle (dist/getlist.js, with undici and htmlparser2 inside it) and its run-time
// dependencies with native addons esbuild cannot bundle — lmdb (the store) and classic-level (read
// once, to migrate an old LevelDB store) — travel inside the tarball as bundled dependencies with
// their own dependencies, including the optional prebuilt binaries installed here. The tarball is
// therefore for this machine's platform (e.g. linux-x64). Prints the tarball's path.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const outArg = process.argv.indexOf('--out');
const out = resolve(outArg > 0 && process.argv[outArg + 1] ? process.argv[outArg + 1] : root);
for (const need of ['dist/getlist.js', 'dist/extension/manifest.json']) {
  if (!existsSync(join(root, need))) {
    process.stderr.write(`pack-cli: E_NOT_BUILT: ${need} is missing; run \`npm run build\` first.\n`);
    process.exit(2);
  }
}
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const RUNTIME = ['lmdb', 'classic-level'];

/**
 * `names` and every package they depend on, read from the flat node_modules of the checkout;
 * optional dependencies (prebuilt binaries for other platforms) only where they are installed.
 */
function closure(names, seen = new Set()) {
  for (const name of names) {
    if (seen.has(name)) continue;
    seen.add(name);
    const dep = JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8'));
    const optional = Object.keys(dep.optionalDependencies ?? {}).filter((n) => existsSync(join(root, 'node_modules', n, 'package.json')));
    closure([...Object.keys(dep.dependencies ?? {}), ...optional], seen);
  }
  return seen;
}

const stage = mkdtempSync(join(tmpdir(), 'getlist-pack-'));
try {
  cpSync(join(root, 'bin'), join(stage, 'bin'), { recursive: true });
  // `getlist install` reads the extension's ids from the root manifest.
  cpSync(join(root, 'manifest.json'), join(stage, 'manifest.json'));
  cpSync(join(root, 'dist', 'getlist.js'), join(stage, 'dist', 'getlist.js'));
  cpSync(join(root, 'dist', 'extension'), join(stage, 'dist', 'extension'), { recursive: true });
  const bundled = [...closure(RUNTIME)].sort();
  for (const name of bundled) cpSync(join(root, 'node_modules', name), join(stage, 'node_modules', name), { recursive: true, dereference: true });
  const dependencies = Object.fromEntries(bundled.map((n) => [n, JSON.parse(readFileSync(join(root, 'node_modules', n, 'package.json'), 'utf8')).version]));
  writeFileSync(
    join(stage, 'package.json'),
    `${JSON.stringify(
      {
        name: pkg.name,
        version: pkg.version,
        description: pkg.description,
        license: pkg.license,
        engines: pkg.engines,
        bin: pkg.bin,
        files: ['bin/', 'dist/getlist.js', 'dist/extension/', 'manifest.json'],
        dependencies,
        bundleDependencies: bundled,
      },
      null,
      2,
    )}\n`,
  );
  const name = execFileSync('npm', ['pack', '--silent', '--pack-destination', out], { cwd: stage, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim().split('\n').pop();
  process.stdout.write(`${join(out, name)}\n`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
