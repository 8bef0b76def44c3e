import { extensionIdFromKey } from './extension-id';
import { InstallError } from './install-error';
import { pathFor, type InstallSystem } from './system';

/** Who may talk to the host: the Chrome extension id and the Firefox add-on (gecko) id. */
export interface ExtensionIdentity {
  /** 32 letters a–p, from manifest.json `key`. */
  chromeId: string;
  /** manifest.json `browser_specific_settings.gecko.id`, e.g. `getlist@getlist.dev`. */
  geckoId: string;
}

/** Reads both ids from the WebExtension manifest at `<packageRoot>/manifest.json`. */
export function readExtensionIdentity(packageRoot: string, sys: Pick<InstallSystem, 'fs' | 'platform'>): ExtensionIdentity {
  const file = pathFor(sys.platform).join(packageRoot, 'manifest.json');
  let doc: unknown;
  try {
    doc = JSON.parse(sys.fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new InstallError('E_EXTENSION_MANIFEST', `cannot read ${file}: ${(err as Error).message}`);
  }
  const m = doc as { key?: unknown; browser_specific_settings?: { gecko?: { id?: unknown } } } | null;
  if (typeof m?.key !== 'string') {
    throw new InstallError('E_EXTENSION_MANIFEST', `${file} has no "key" (the base64 public key that fixes the Chrome extension id)`);
  }
  const geckoId = m.browser_specific_settings?.gecko?.id;
  if (typeof geckoId !== 'string' || geckoId === '') {
    throw new InstallError('E_EXTENSION_MANIFEST', `${file} has no browser_specific_settings.gecko.id (the Firefox add-on id)`);
  }
  return { chromeId: extensionIdFromKey(m.key), geckoId };
}
