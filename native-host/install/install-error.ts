import { CodedError } from '../../src/core/coded-error';

/**
 * Stable codes for what the installer and the doctor can report. Callers match on `code`.
 *
 * - `E_USAGE`: a bad option value (an extension id that is not 32 letters a–p, …).
 * - `E_EXTENSION_MANIFEST`: manifest.json is missing, unreadable, or lacks `key` / the gecko id.
 * - `E_PACKAGE_ROOT`: the getlist package (with `bin/getlist.js`) could not be found.
 * - `E_INSTALL_WRITE`: a manifest, launcher or directory could not be written or removed.
 * - `E_REGISTRY`: `reg.exe` failed (Windows).
 * - `E_LAUNCHER_PATH`: a launcher command contains a character the script format cannot hold.
 */
export type InstallErrorCode =
  | 'E_USAGE'
  | 'E_EXTENSION_MANIFEST'
  | 'E_PACKAGE_ROOT'
  | 'E_INSTALL_WRITE'
  | 'E_REGISTRY'
  | 'E_LAUNCHER_PATH';

/** A failure the user can act on; the message says what was expected and what was found. */
export class InstallError extends CodedError<InstallErrorCode> {
  override readonly name = 'InstallError';
}
