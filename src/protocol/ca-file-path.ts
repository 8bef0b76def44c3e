/** Longest CA file path accepted (Linux PATH_MAX). */
export const MAX_CA_PATH_LENGTH = 4096;

/**
 * An absolute path on the host's machine: `/…` (POSIX) or `C:\…`, `C:/…`, `\\server\…` (Windows).
 * Relative paths are refused: the host's working directory is not one the user chose.
 */
export function isAbsolutePath(p: string): boolean {
  return p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\');
}
