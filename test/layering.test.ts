import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { folderGraph, importCycles, importedNames, importGraph, relativeSpecifiers, sourceFiles } from './support/import-graph';

/**
 * The layering docs/architecture.md draws, checked on the real import graph: no import cycles
 * between files or between folders, src/core imports nothing, the extension's engine (src/page)
 * is the extension's own, and the host and the store never reach into the CLI (what a run is
 * lives in src/run, every kind of run in native-host/run). The lint half of the CLI rule is the
 * `native-host/{host,store}` block of eslint.config.mjs.
 */
const root = join(__dirname, '..');
const graph = importGraph(root, ['src', 'native-host', 'extension', 'bench']);
const edges = [...graph].flatMap(([file, deps]) => deps.map((d) => ({ file, dep: d })));

describe('import graph', () => {
  test('the scanner and the cycle finder see what they must (so the checks below can fail)', () => {
    expect(relativeSpecifiers("import type { A } from './a';\nexport { b } from '../b';\nexport * from './c';\nimport x from 'undici';\n// import { y } from './y';\n"))
      .toEqual(['./a', '../b', './c']);
    const planted = new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']], ['e', ['e']], ['f', []]]);
    expect(importCycles(planted)).toEqual([['a', 'b', 'c'], ['e']]);
    expect(graph.get('native-host/transport/undici-transport.ts')).toEqual(expect.arrayContaining(['native-host/transport/flight.ts']));
    expect(graph.size).toBeGreaterThan(100);
  });

  test('no import cycles in src, native-host, extension or bench', () => {
    expect(importCycles(graph)).toEqual([]);
  });

  test('the folder graph sees a loop between folders (so the check below can fail)', () => {
    const planted = new Map([['a/x.ts', ['b/y.ts']], ['b/y.ts', ['b/z.ts']], ['b/z.ts', ['a/w.ts']], ['a/w.ts', []]]);
    expect(importCycles(folderGraph(planted))).toEqual([['a', 'b']]);
  });

  test('no import loops between folders in src, native-host, extension or bench', () => {
    expect(importCycles(folderGraph(graph))).toEqual([]);
  });

  test('src/core is the ground floor: it imports nothing outside itself', () => {
    expect(edges.filter((e) => e.file.startsWith('src/core/') && !e.dep.startsWith('src/core/')).map((e) => `${e.file} → ${e.dep}`)).toEqual([]);
  });

  test("src/page is the extension's engine: only the extension (and bench/) import it", () => {
    const offending = edges.filter((e) => e.dep.startsWith('src/page/') && !e.file.startsWith('src/page/') && !e.file.startsWith('extension/') && !e.file.startsWith('bench/'));
    expect(offending.map((e) => `${e.file} → ${e.dep}`)).toEqual([]);
  });

  test('native-host/host and native-host/store import nothing from native-host/cli', () => {
    const offending = [...graph]
      .filter(([file]) => file.startsWith('native-host/host/') || file.startsWith('native-host/store/'))
      .flatMap(([file, deps]) => deps.filter((d) => d.startsWith('native-host/cli/')).map((d) => `${file} → ${d}`));
    expect(offending).toEqual([]);
  });

  test('native-host/transport names the scheduler only through its ports (TransportPort down, TransportHandler up)', () => {
    expect(importedNames("import { type Dispatch, Scheduler as S } from '../../src/scheduler';\n", 'src/scheduler')).toEqual(['Dispatch', 'Scheduler']);
    const files = sourceFiles(join(root, 'native-host', 'transport'));
    const names = files.flatMap((f) => importedNames(readFileSync(f, 'utf8'), 'src/scheduler'));
    expect(names).toEqual(expect.arrayContaining(['TransportHandler', 'TransportPort']));
    expect(names).not.toContain('Scheduler');
  });
});
