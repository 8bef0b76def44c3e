import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readMemoryFile, writeMemoryFile } from './memory-file';

const dir = mkdtempSync(path.join(tmpdir(), 'getlist-memory-legacy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('a --memory file written before the ALPN ids (protocol "h1") still reads, as http/1.1, and is written back in the new form', async () => {
  const file = path.join(dir, 'old.json');
  const now = Date.now();
  const legacy = { version: 1, origins: [{ origin: 'http://old.test', lastSeen: now, protocol: 'h1', pipelining: 'good', requestBudget: 100 }], pages: [] };
  writeFileSync(file, JSON.stringify(legacy));
  const memory = await readMemoryFile(file);
  expect(memory.get('http://old.test')).toMatchObject({ protocol: 'http/1.1', pipelining: 'good', requestBudget: 100 });
  writeMemoryFile(file, memory);
  const written = readFileSync(file, 'utf8');
  expect(written).toContain('"protocol":"http/1.1"');
  expect(written).not.toContain('"h1"');
});
