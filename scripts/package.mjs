// `npm run package`: builds the extension without source maps and writes the store packages,
// dist/getlist-chrome.zip and dist/getlist-firefox.xpi (both are zips of dist/extension/).
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { zip } from './zip.mjs';

const EXT = 'dist/extension';
execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit', env: { ...process.env, GETLIST_RELEASE: '1' } });

function walk(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : [path];
    });
}

const files = walk(EXT).map((path) => ({ name: relative(EXT, path).split(sep).join('/'), data: readFileSync(path) }));
const required = ['manifest.json', 'background.js', 'content-start.js', 'content.js', 'content-speculate.js', 'popup.html', 'popup.js', 'options.html', 'options.js'];
const absent = required.filter((name) => !files.some((f) => f.name === name));
if (absent.length) {
  console.error(`package: the extension is incomplete (missing ${absent.join(', ')}); not packaging it.`);
  process.exit(1);
}
// manifest.json first: some tools read only the start of the archive.
files.sort((a, b) => (a.name === 'manifest.json' ? -1 : b.name === 'manifest.json' ? 1 : 0));
const archive = zip(files);
writeFileSync('dist/getlist-chrome.zip', archive);
writeFileSync('dist/getlist-firefox.xpi', archive);
console.log(`package: dist/getlist-chrome.zip and dist/getlist-firefox.xpi (${files.length} files, ${archive.length} bytes)`);
