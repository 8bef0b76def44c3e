import fs from 'node:fs';
import path from 'node:path';
import type { TempDirs } from './temp-dirs';
import { repoRoot } from '../../support/repo-root';

/** The loadable extension `npm run build` writes (npm test builds before Jest runs). */
export const EXTENSION_DIR = path.join(repoRoot(__dirname), 'dist', 'extension');

export interface ExtensionCopy {
  /** A private copy of the build, for the browser to load. */
  dir: string;
  /** A page of the extension to send UI messages from: its options page, else its popup. */
  queryPage: string;
}

/**
 * Copies the built extension into a temp dir: a rebuild while the browser runs (which empties
 * dist/extension first) must not pull files from under it. Throws saying how to build when
 * there is no build.
 */
export function copyExtensionBuild(dirs: TempDirs): ExtensionCopy {
  if (!fs.existsSync(path.join(EXTENSION_DIR, 'manifest.json'))) {
    throw new Error(`E2E_NOT_BUILT: ${EXTENSION_DIR}/manifest.json is missing; run \`npm run build\` first (npm test does).`);
  }
  const dir = path.join(dirs.make('extension'), 'extension');
  fs.cpSync(EXTENSION_DIR, dir, { recursive: true });
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { options_ui?: { page?: string }; options_page?: string };
  return { dir, queryPage: manifest.options_ui?.page ?? manifest.options_page ?? 'popup.html' };
}
