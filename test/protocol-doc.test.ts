import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PROTOCOL_ERROR_CODES, PROTOCOL_VERSION, REQUEST_TYPES, RUN_TIMEOUT_MS } from '../src/protocol';
import { sourceFiles } from './support/import-graph';

/**
 * docs/protocol.md is what an extension or host author reads; it states what the code does. Its
 * version, its request table and its error table are compared with the constants both sides import.
 */
const root = join(__dirname, '..');
const doc = readFileSync(join(root, 'docs', 'protocol.md'), 'utf8');

/** The first column of each body row of the first markdown table at or after `marker`. */
function firstColumn(marker: string): string[] {
  const at = doc.indexOf(marker);
  expect(at).toBeGreaterThanOrEqual(0);
  const lines = doc.slice(at).split('\n');
  const start = lines.findIndex((l) => l.startsWith('|'));
  const end = lines.findIndex((l, i) => i > start && !l.startsWith('|'));
  // The header and its |---| line are not rows.
  return lines.slice(start + 2, end < 0 ? undefined : end).map((r) => (r.split('|')[1] ?? '').trim());
}

describe('docs/protocol.md', () => {
  test('states the protocol version of the code, in the text and in hello’s reply', () => {
    expect([...doc.matchAll(/`PROTOCOL_VERSION` is (\d+)/g)].map((m) => Number(m[1]))).toEqual([PROTOCOL_VERSION]);
    const replies = [...doc.matchAll(/"protocolVersion": (\d+)/g)].map((m) => Number(m[1]));
    expect(replies.length).toBeGreaterThan(0);
    expect(new Set(replies)).toEqual(new Set([PROTOCOL_VERSION]));
  });

  test('its error table lists exactly the codes an error reply can carry, each once', () => {
    const codes = firstColumn('**Error codes**').map((c) => c.replace(/`/g, ''));
    expect(codes.length).toBeGreaterThan(10);
    expect(new Set(codes).size).toBe(codes.length);
    expect([...codes].sort()).toEqual([...PROTOCOL_ERROR_CODES].sort());
  });

  test('states the limit of one replayed strategy that the code applies', () => {
    const stated = [...doc.matchAll(/after (\d+) s\s+\(`RUN_TIMEOUT_MS`/g)].map((m) => Number(m[1]) * 1000);
    expect(stated).toEqual([RUN_TIMEOUT_MS]);
  });

  test('its request table has a row for every request type', () => {
    const types = new Set(firstColumn('| request | fields | reply |').flatMap((c) => [...c.matchAll(/`([a-z-]+)`/g)].map((m) => m[1])));
    expect([...REQUEST_TYPES].filter((t) => !types.has(t))).toEqual([]);
  });
});

describe('PROTOCOL_ERROR_CODES', () => {
  test('every code is produced somewhere outside the list itself (no code is only documented)', () => {
    const files = [...sourceFiles(join(root, 'src')), ...sourceFiles(join(root, 'native-host'))].filter((f) => !f.endsWith('.test.ts') && !f.endsWith(join('src', 'protocol', 'errors.ts')));
    const text = files.map((f) => readFileSync(f, 'utf8')).join('\n');
    const unused = PROTOCOL_ERROR_CODES.filter((code) => !text.includes(`'${code}'`));
    expect(files.map((f) => relative(root, f))).toEqual(expect.arrayContaining(['native-host/host/framing.ts', 'src/protocol/validate-request.ts']));
    expect(unused).toEqual([]);
  });
});
