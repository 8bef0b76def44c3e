import { InMemoryOriginMemory, type InMemoryOriginMemoryOptions } from '../../src/origins/origin-memory';
import { writeOutputFile } from './write-output';
import { BoundedFileError, readBoundedFile } from '../files/read-bounded-file';
import { LoadError } from '../run/load-errors';

/**
 * Origin memory files are JSON of per-origin facts and page lists that expire after a week; one
 * that a user's loads wrote stays far below this. More is not a memory file.
 */
export const MAX_MEMORY_FILE_BYTES = 64 * 1024 * 1024;

/**
 * `getlist load --memory FILE`: origin memory kept in a JSON file between command runs (the
 * engine's side of the store's per-origin facts, for the CLI and the benchmark). A missing file is
 * an empty memory; a file that is not a regular file, is too large or is not JSON is refused,
 * naming it; malformed records are skipped (InMemoryOriginMemory.fromJSON: checkOriginFacts, the
 * store's checker).
 */
export async function readMemoryFile(file: string, options: InMemoryOriginMemoryOptions = {}): Promise<InMemoryOriginMemory> {
  let text: string;
  try {
    text = (await readBoundedFile(file, MAX_MEMORY_FILE_BYTES)).toString('utf8');
  } catch (err) {
    if (!(err instanceof BoundedFileError)) throw err;
    if (err.errno === 'ENOENT') return new InMemoryOriginMemory(options);
    throw new LoadError('E_MEMORY_FILE', `cannot read origin memory ${file}: ${err.message}; give --memory a JSON file getlist wrote, or a new path`);
  }
  try {
    return InMemoryOriginMemory.fromJSON(JSON.parse(text), options);
  } catch {
    throw new LoadError('E_MEMORY_FILE', `origin memory ${file} is not JSON; delete it to start afresh`);
  }
}

export function writeMemoryFile(file: string, memory: InMemoryOriginMemory): void {
  writeOutputFile(file, `${JSON.stringify(memory.toJSON())}\n`);
}
