import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importCycles, importedNames, importGraph, relativeSpecifiers, sourceFiles } from './support/import-graph';

/**
 * The layering ARCHITECTURE.md draws, checked on the real import graph: no import cycles, and the
 * host and the store never reach into the CLI (what a run is lives in src/run, the run session in
 * native-host/run). The lint half of the CLI rule is the `native-host/{host,store}` block of
 * eslint.config.mjs.
 */
const root = join(__dirname, '..');
const graph = importGraph(root, ['src', 'native-host', 'extension', 'bench']);

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
