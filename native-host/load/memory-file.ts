import { readFileSync } from 'node:fs';
import { InMemoryOriginMemory, type InMemoryOriginMemoryOptions } from '../../src/origins/origin-memory';
import { writeFileAtomic } from '../cli/write-file-atomic';
import { LoadError } from './load-errors';

/**
 * `getlist load --memory FILE`: origin memory kept in a JSON file between command runs (the
 * engine's side of the store's per-origin facts, for the CLI and the benchmark). A missing file is
 * an empty memory; a file that is not JSON is refused, naming it; malformed records are skipped
 * (InMemoryOriginMemory.fromJSON: checkOriginFacts, the store's checker).
 */
export function readMemoryFile(file: string, options: InMemoryOriginMemoryOptions = {}): InMemoryOriginMemory {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return new InMemoryOriginMemory(options);
    throw new LoadError('E_MEMORY_FILE', `cannot read origin memory ${file}: ${(err as Error).message}`);
  }
  try {
    return InMemoryOriginMemory.fromJSON(JSON.parse(text), options);
  } catch {
    throw new LoadError('E_MEMORY_FILE', `origin memory ${file} is not JSON; delete it to start afresh`);
  }
}

export function writeMemoryFile(file: string, memory: InMemoryOriginMemory): void {
  writeFileAtomic(file, `${JSON.stringify(memory.toJSON())}\n`);
}
