import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { InMemoryOriginMemory } from '../../src/origins/origin-memory';
import { MAX_MEMORY_FILE_BYTES, readMemoryFile, writeMemoryFile } from './memory-file';

const dir = mkdtempSync(path.join(tmpdir(), 'getlist-memory-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('what writeMemoryFile wrote reads back; a missing file is an empty memory', async () => {
  const file = path.join(dir, 'memory.json');
  const memory = new InMemoryOriginMemory();
  memory.put({ origin: 'https://a.test', protocol: 'h2', requestBudget: 100 });
  writeMemoryFile(file, memory);
  expect((await readMemoryFile(file)).get('https://a.test')).toMatchObject({ protocol: 'h2', requestBudget: 100 });
  expect((await readMemoryFile(path.join(dir, 'none.json'))).toJSON()).toEqual(new InMemoryOriginMemory().toJSON());
});

test.each([
  ['/dev/zero', () => '/dev/zero', /: it is a character device, not a regular file; give --memory a JSON file/],
  ['a FIFO', () => {
    const p = path.join(dir, 'fifo');
    execFileSync('mkfifo', [p]);
    return p;
  }, /: it is a FIFO \(named pipe\), not a regular file/],
  ['a directory', () => dir, /: it is a directory, not a regular file/],
  ['a file over the cap', () => {
    const p = path.join(dir, 'huge.json');
    writeFileSync(p, '');
    truncateSync(p, MAX_MEMORY_FILE_BYTES + 1);
    return p;
  }, /: it holds \d+ bytes, more than the \d+ bytes allowed/],
  ['a file that is not JSON', () => {
    const p = path.join(dir, 'text.json');
    writeFileSync(p, 'not json');
    return p;
  }, /is not JSON; delete it to start afresh/],
])('%s is E_MEMORY_FILE naming the file', async (_what, make, message) => {
  const file = make();
  await expect(readMemoryFile(file)).rejects.toMatchObject({ code: 'E_MEMORY_FILE', message: expect.stringMatching(message) });
  await expect(readMemoryFile(file)).rejects.toMatchObject({ message: expect.stringContaining(file) });
});
