import { writeFileAtomic } from '../files/write-file-atomic';
import { CliError } from './cli-error';

/**
 * Writes a file the user named on the command line (`export --out`, `load --memory`) atomically,
 * 0600. A failure is `E_EXPORT_WRITE` naming the file and the errno, or what the file is.
 */
export function writeOutputFile(file: string, data: string): void {
  try {
    writeFileAtomic(file, data);
  } catch (err) {
    throw new CliError('E_EXPORT_WRITE', (err as Error).message);
  }
}
