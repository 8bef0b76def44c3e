import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { eslintApi, type LintMessage, type LintOutput, type LintSummary } from './support/eslint-api';

/**
 * `src/` is the pure core (no Node, DOM or WebExtension APIs, no transport library). The rule is
 * enforced by the `src/**` block of eslint.config.mjs and by tsconfig.src.json; this test keeps the
 * lint half honest: it plants violations and checks they are caught, checks the same code is
 * allowed in native-host/, lints the real tree, and independently scans src/ import specifiers.
 */

const repoRoot = join(__dirname, '..');
/**
 * Bare module specifiers src/ may import (pure libraries). htmlparser2 tokenizes HTML; domhandler
 * builds the DOM from its events, and css-select (with domutils) matches style rules against that
 * DOM — all from the htmlparser2 family, no Node or DOM APIs (a style sheet's `url()`s are fetched only for
 * rules an element matches, as a browser does).
 */
const ALLOWED_PACKAGES = new Set(['htmlparser2', 'domhandler', 'domutils', 'css-select']);

const IMPORT_PLANTS: Array<[module: string, code: string]> = [
  ['undici', "import { errors } from 'undici';\nexport const planted = errors;\n"],
  ['undici/types', "import type { Dispatcher } from 'undici/types';\nexport type Planted = Dispatcher;\n"],
  ['node:fs', "import { readFileSync } from 'node:fs';\nexport const planted = readFileSync;\n"],
  ['fs', "import { readFileSync } from 'fs';\nexport const planted = readFileSync;\n"],
  ['node:net', "import type { Socket } from 'node:net';\nexport type Planted = Socket;\n"],
  ['webextension-polyfill', "import browser from 'webextension-polyfill';\nexport const planted = browser;\n"],
];
const GLOBALS_REQUIRED = ['window', 'document', 'process', 'chrome'];
const globalPlant = (name: string) => `export function planted(): unknown {\n  return ${name};\n}\n`;

const SRC_PLANT = 'src/scheduler/__planted__.ts';
const HOST_PLANT = 'native-host/transport/__planted__.ts';

function restricted(s: LintSummary | undefined, ruleId: string): LintMessage[] {
  return (s?.messages ?? []).filter((m) => m.ruleId === ruleId && m.severity === 2);
}

/**
 * Every module specifier a TypeScript source imports, re-exports or requires, read from its syntax
 * tree (so `@import` in a CSS string or "import" in a comment is not one). `null` marks a dynamic
 * `import()` / `require()` whose argument is not a string literal.
 */
function moduleSpecifiers(source: string, fileName = 'x.ts'): Array<string | null> {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const out: Array<string | null> = [];
  const literal = (e: ts.Node | undefined) => (e && ts.isStringLiteralLike(e) ? e.text : null);
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      out.push(literal(node.moduleSpecifier));
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      out.push(literal(node.moduleReference.expression));
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      out.push(literal(node.argument.literal));
    } else if (ts.isCallExpression(node) && (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require'))) {
      out.push(literal(node.arguments[0]));
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

const isRelative = (spec: string) => spec.startsWith('./') || spec.startsWith('../');

function srcFiles(dir: string): string[] {
  const files: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) files.push(...srcFiles(p));
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.endsWith('.d.ts')) files.push(p);
  }
  return files;
}

describe('src/ stays pure', () => {
  let lint: LintOutput;
  let config: LintOutput['config'];
  let plants: Array<{ code: string; filePath: string }>;
  let globals: string[];

  beforeAll(async () => {
    // A first, cheap run reads the config's own lists, so every global it forbids gets planted.
    config = (await eslintApi([], [])).config;
    globals = [...new Set([...GLOBALS_REQUIRED, ...config.srcForbiddenGlobals])];
    plants = [];
    for (const filePath of [SRC_PLANT, HOST_PLANT]) {
      for (const [, code] of IMPORT_PLANTS) plants.push({ code, filePath });
      for (const g of globals) plants.push({ code: globalPlant(g), filePath });
    }
    lint = await eslintApi(plants, ['src']);
  }, 60_000);

  const summaryFor = (code: string, filePath: string) => lint.texts[plants.findIndex((t) => t.code === code && t.filePath === filePath)];

  test('the config forbids what this test plants', () => {
    for (const m of ['undici', 'undici/*', 'webextension-polyfill', 'fs', 'node:fs']) expect(config.srcForbiddenImports).toContain(m);
    for (const g of GLOBALS_REQUIRED) expect(config.srcForbiddenGlobals).toContain(g);
    expect(lint.texts).toHaveLength(plants.length);
  });

  test.each(IMPORT_PLANTS)('importing %s in src/ is a no-restricted-imports error; in native-host/ it is allowed', (module, code) => {
    const inSrc = summaryFor(code, SRC_PLANT);
    expect(inSrc?.filePath).toBe(join(repoRoot, SRC_PLANT));
    const hits = restricted(inSrc, 'no-restricted-imports');
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.some((m) => m.message.includes(`'${module}'`))).toBe(true);
    expect(hits.every((m) => m.line === 1)).toBe(true);

    const inHost = summaryFor(code, HOST_PLANT);
    expect(inHost?.filePath).toBe(join(repoRoot, HOST_PLANT));
    expect(restricted(inHost, 'no-restricted-imports')).toEqual([]);
    expect(inHost?.errorCount).toBe(0);
  });

  // The globals that open connections are forbidden in native-host/ too, by the connection gate's
  // rule (test/connection-gate-lint.test.ts).
  test('every global the config forbids is a no-restricted-globals error in src/ and, unless it opens connections, allowed in native-host/', () => {
    const caught: string[] = [];
    const allowedInHost: string[] = [];
    for (const g of globals) {
      const inSrc = summaryFor(globalPlant(g), SRC_PLANT);
      if (restricted(inSrc, 'no-restricted-globals').some((m) => m.message.includes(`'${g}'`) && m.line === 2)) caught.push(g);
      const inHost = summaryFor(globalPlant(g), HOST_PLANT);
      if (restricted(inHost, 'no-restricted-globals').length === 0 && inHost?.errorCount === 0) allowedInHost.push(g);
    }
    expect(caught).toEqual(globals);
    expect(allowedInHost).toEqual(globals.filter((g) => !config.connectionGlobals.includes(g)));
  });

  test('the real src/ tree lints clean', () => {
    const files = lint.files.map((f) => relative(repoRoot, f.filePath));
    expect(files).toEqual(expect.arrayContaining(['src/scheduler/scheduler.ts', 'src/discovery/html-scanner.ts']));
    const problems = lint.files.flatMap((f) => f.messages.filter((m) => m.severity === 2).map((m) => `${relative(repoRoot, f.filePath)}:${m.line} ${m.ruleId}: ${m.message}`));
    expect(problems).toEqual([]);
  });
});

describe('src/ imports only relative modules and allow-listed pure packages', () => {
  test('the specifier scanner finds every import form (so the scan below can fail)', () => {
    const planted = [
      "import { a } from './a';",
      "import type { B } from '../b';",
      "import {\n  c,\n  d,\n} from 'undici';",
      "export { e } from 'node:fs';",
      "export * from 'fs';",
      "import 'webextension-polyfill';",
      "const f = await import('node:net');",
      "const g = require('http');",
      'const h = require(name);',
      "import i = require('os');",
      "type J = typeof import('tls');",
      "// import { k } from 'not-an-import';",
      "const css = '@import url(x.css); import y from \\'also-not\\'';",
    ].join('\n');
    expect(moduleSpecifiers(planted)).toEqual(['./a', '../b', 'undici', 'node:fs', 'fs', 'webextension-polyfill', 'node:net', 'http', null, 'os', 'tls']);
  });

  test('every non-test .ts file under src/', () => {
    const files = srcFiles(join(repoRoot, 'src'));
    expect(files.length).toBeGreaterThan(10);
    const violations: string[] = [];
    let specifiers = 0;
    for (const file of files) {
      for (const spec of moduleSpecifiers(readFileSync(file, 'utf8'))) {
        specifiers += 1;
        if (spec === null || (!isRelative(spec) && !ALLOWED_PACKAGES.has(spec))) violations.push(`${relative(repoRoot, file)}: ${spec ?? '<non-literal import()/require()>'}`);
      }
    }
    expect(specifiers).toBeGreaterThan(files.length);
    expect(violations).toEqual([]);
  });
});
