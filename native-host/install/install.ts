import type { Browser } from './browser-name';
import { resolveDataDir } from './data-dir';
import type { ExtensionIdentity } from './extension-identity';
import { buildHostManifest, serializeHostManifest } from './host-manifest';
import { launcherPath, launcherScript } from './launcher';
import { hostLocation } from './locations';
import { readRegistryDefault, writeRegistryDefault } from './registry';
import { realSystem, type InstallSystem } from './system';
import { writeFileIfChanged, type FileChange } from './write-file';

export interface InstallOptions {
  browsers: readonly Browser[];
  ids: ExtensionIdentity;
  /**
   * The argv the launcher execs, before the browser's own arguments; normally
   * `defaultHostCommand(...)` = `<node> <package>/bin/getlist.js host`. Tests put a fake host here.
   */
  hostCommand: readonly string[];
  /** Chrome/Chromium `--user-data-dir` to install into instead of the default profile root. */
  userDataDir?: string;
}

export interface InstalledManifest {
  browser: Browser;
  manifestPath: string;
  /** `updated` also when only the registry value (Windows) had to change. */
  change: FileChange;
  registryKey?: string;
}

export interface InstallResult {
  dataDir: string;
  launcher: { path: string; change: FileChange };
  manifests: InstalledManifest[];
}

/**
 * Writes the launcher into the data dir and a host manifest for each browser (plus, on Windows,
 * the registry value pointing at it). Idempotent: files whose content is already right are left
 * alone and reported `unchanged`.
 */
export async function install(opts: InstallOptions, sys: InstallSystem = realSystem()): Promise<InstallResult> {
  const dataDir = resolveDataDir(sys);
  // The data dir also holds the store, which only the user may read (docs/architecture.md, "Privacy").
  const launcher = launcherPath(dataDir, sys.platform);
  const launcherChange = writeFileIfChanged(sys, launcher, launcherScript(opts.hostCommand, sys.platform), 0o755, 0o700);
  const manifests: InstalledManifest[] = [];
  for (const browser of opts.browsers) {
    const loc = hostLocation(browser, sys, { dataDir, ...(opts.userDataDir !== undefined ? { userDataDir: opts.userDataDir } : {}) });
    let change = writeFileIfChanged(sys, loc.manifestPath, serializeHostManifest(buildHostManifest(browser, launcher, opts.ids)), 0o644);
    if (loc.registryKey !== undefined && (await readRegistryDefault(sys.exec, loc.registryKey)) !== loc.manifestPath) {
      await writeRegistryDefault(sys.exec, loc.registryKey, loc.manifestPath);
      if (change === 'unchanged') change = 'updated';
    }
    manifests.push({ browser, manifestPath: loc.manifestPath, change, ...(loc.registryKey !== undefined ? { registryKey: loc.registryKey } : {}) });
  }
  return { dataDir, launcher: { path: launcher, change: launcherChange }, manifests };
}
