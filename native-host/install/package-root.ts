import path from 'node:path';
import { InstallError } from './install-error';
import type { InstallFs } from './system';

/**
 * The getlist package directory (holding `package.json` named "getlist" and `bin/getlist.js`),
 * found by walking up from `startDir`. Works from the bundle (`dist/`) and from sources under
 * ts-jest (`native-host/install/`) alike.
 */
export function findPackageRoot(startDir: string = __dirname, fs: Pick<InstallFs, 'existsSync' | 'readFileSync'>): string {
  for (let dir = path.resolve(startDir); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'bin', 'getlist.js')) && isGetlistPackage(dir, fs)) return dir;
    if (path.dirname(dir) === dir) break;
  }
  throw new InstallError('E_PACKAGE_ROOT', `cannot find the getlist package (bin/getlist.js) above ${startDir}`);
}

function isGetlistPackage(dir: string, fs: Pick<InstallFs, 'readFileSync'>): boolean {
  try {
    return (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown }).name === 'getlist';
  } catch {
    return false;
  }
}
