import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { eslintApi, type LintOutput } from './support/eslint-api';

/**
 * Every connection the host or the CLI opens goes through the connection gate
 * (native-host/transport/connection-gate.ts, applied by timing-connector.ts). eslint.config.mjs
 * forbids the APIs that dial anywhere else in native-host/; this test plants each of them and checks
 * the rule catches it, checks what the rule must leave alone, and checks that the one undici
 * `Client` the transport builds is handed the gate's socket (its `connect` option).
 */

const repoRoot = join(__dirname, '..');
const PLANT = 'native-host/host/__planted__.ts';
const GATE_RULE = '@typescript-eslint/no-restricted-imports';

let lint: LintOutput;
let plants: Array<{ code: string; filePath: string; what: string; caught: boolean }>;

beforeAll(async () => {
  const { config } = await eslintApi([], []);
  plants = [];
  for (const [module, names] of Object.entries(config.connectionApis)) {
    for (const name of names) {
      plants.push({ what: `${name} from ${module}`, code: `import { ${name} } from '${module}';\nexport const planted = ${name};\n`, filePath: PLANT, caught: true });
      const bare = module.replace(/^node:/, '');
      if (bare !== module) plants.push({ what: `${name} from ${bare}`, code: `import { ${name} as x } from '${bare}';\nexport const planted = x;\n`, filePath: PLANT, caught: true });
    }
    plants.push({ what: `* from ${module}`, code: `import * as m from '${module}';\nexport const planted = m;\n`, filePath: PLANT, caught: true });
  }
  for (const g of config.connectionGlobals) plants.push({ what: `global ${g}`, code: `export function planted(): unknown {\n  return ${g};\n}\n`, filePath: PLANT, caught: true });
  plants.push({ what: 'undici internals', code: "import { Client } from 'undici/lib/dispatcher/client';\nexport const planted = Client;\n", filePath: PLANT, caught: true });
  plants.push({ what: 'a Client outside the transport', code: "import { Client } from 'undici';\nexport const planted = Client;\n", filePath: 'native-host/transport/__planted__.ts', caught: true });
  // Left alone: types, listening, and what opens nothing.
  plants.push({ what: 'type imports', code: "import type { Socket } from 'node:net';\nimport type { Dispatcher } from 'undici';\nexport type Planted = [Socket, Dispatcher];\n", filePath: PLANT, caught: false });
  plants.push({ what: 'a server', code: "import { createServer } from 'node:http';\nexport const planted = createServer;\n", filePath: PLANT, caught: false });
  plants.push({ what: 'undici errors', code: "import { errors } from 'undici';\nexport const planted = errors;\n", filePath: PLANT, caught: false });
  plants.push({ what: 'the transport building its Client', code: "import { Client } from 'undici';\nexport const planted = Client;\n", filePath: 'native-host/transport/undici-transport.ts', caught: false });
  plants.push({ what: "the transport building its Client from undici's Client module", code: "import Client from 'undici/lib/dispatcher/client';\nexport const planted = Client;\n", filePath: 'native-host/transport/undici-transport.ts', caught: false });
  plants.push({ what: "undici's pool module in the transport", code: "import Pool from 'undici/lib/dispatcher/pool';\nexport const planted = Pool;\n", filePath: 'native-host/transport/undici-transport.ts', caught: true });
  plants.push({ what: "undici's Client module outside the transport", code: "import Client from 'undici/lib/dispatcher/client';\nexport const planted = Client;\n", filePath: PLANT, caught: true });
  lint = await eslintApi(plants.map(({ code, filePath }) => ({ code, filePath })), ['native-host']);
}, 60_000);

test('every API that opens a connection is a lint error in native-host/, outside the gate', () => {
  const missed: string[] = [];
  const wrong: string[] = [];
  plants.forEach((p, i) => {
    const messages = lint.texts[i]?.messages ?? [];
    const hit = messages.some((m) => (m.ruleId === GATE_RULE || m.ruleId === 'no-restricted-globals') && m.severity === 2 && m.message.includes('connection gate'));
    if (p.caught && !hit) missed.push(p.what);
    if (!p.caught && hit) wrong.push(p.what);
  });
  expect(lint.texts).toHaveLength(plants.length);
  expect(missed).toEqual([]);
  expect(wrong).toEqual([]);
  expect(plants.filter((p) => p.caught).length).toBeGreaterThan(60);
});

test('the real native-host/ tree lints clean under the rule', () => {
  const files = lint.files.map((f) => relative(repoRoot, f.filePath));
  expect(files).toEqual(expect.arrayContaining(['native-host/transport/timing-connector.ts', 'native-host/host/measure.ts']));
  const problems = lint.files.flatMap((f) => f.messages.filter((m) => m.severity === 2).map((m) => `${relative(repoRoot, f.filePath)}:${m.line} ${m.ruleId}: ${m.message}`));
  expect(problems).toEqual([]);
});

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return tsFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

test("the only undici Client in native-host/ is the transport's, and it is handed the gate's socket", () => {
  const found: string[] = [];
  for (const file of tsFiles(join(repoRoot, 'native-host'))) {
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
    const visit = (node: ts.Node): void => {
      if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'Client') {
        const options = node.arguments?.[1];
        const connect = options && ts.isObjectLiteralExpression(options) && options.properties.some((p) => p.name && ts.isIdentifier(p.name) && p.name.text === 'connect');
        found.push(`${relative(repoRoot, file)}${connect ? ' (connect)' : ''}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  expect(found).toEqual(['native-host/transport/undici-transport.ts (connect)']);
});
