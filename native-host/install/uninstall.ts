import type { Browser } from './browser-name';
import { resolveDataDir } from './data-dir';
import { launcherPath } from './launcher';
import { hostLocation } from './locations';
import { browsersWithManifest } from './installed';
import { deleteRegistryKey } from './registry';
import { realSystem, type InstallSystem } from './system';
import { removeFile } from './write-file';

export interface UninstallOptions {
  browsers: readonly Browser[];
  userDataDir?: string;
}

export interface UninstallResult {
  /** Manifests (and registry keys) that existed and were removed. */
  removed: Array<{ browser: Browser; manifestPath?: string; registryKey?: string }>;
  /** The launcher, when it was removed; it is kept while any browser's manifest still uses it. */
  launcherRemoved?: string;
  /** Browsers whose default-location manifest still exists, so the launcher was kept. */
  launcherKeptFor: Browser[];
}

/**
 * Removes getlist's host manifest for each browser (and its registry key on Windows). The
 * launcher goes too once no browser's default-location manifest refers to it any more. The data
 * dir itself stays: it holds the user's store.
 */
export async function uninstall(opts: UninstallOptions, sys: InstallSystem = realSystem()): Promise<UninstallResult> {
  const dataDir = resolveDataDir(sys);
  const removed: UninstallResult['removed'] = [];
  for (const browser of opts.browsers) {
    const loc = hostLocation(browser, sys, { dataDir, ...(opts.userDataDir !== undefined ? { userDataDir: opts.userDataDir } : {}) });
    const entry: UninstallResult['removed'][number] = { browser };
    if (removeFile(sys, loc.manifestPath)) entry.manifestPath = loc.manifestPath;
    if (loc.registryKey !== undefined && (await deleteRegistryKey(sys.exec, loc.registryKey))) entry.registryKey = loc.registryKey;
    if (entry.manifestPath !== undefined || entry.registryKey !== undefined) removed.push(entry);
  }
  const launcherKeptFor = await browsersWithManifest(sys);
  const launcher = launcherPath(dataDir, sys.platform);
  if (launcherKeptFor.length === 0 && removeFile(sys, launcher)) return { removed, launcherRemoved: launcher, launcherKeptFor };
  return { removed, launcherKeptFor };
}
