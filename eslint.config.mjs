// Lint rules. The `src/` block is what keeps the core pure (docs/architecture.md, "Layering rules"):
// test/purity.test.ts runs this config against a planted violation so the rule cannot rot.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
export const srcForbiddenImports = ['undici', 'undici/*', 'webextension-polyfill', ...nodeBuiltins];
export const srcForbiddenGlobals = [
  'window', 'document', 'navigator', 'chrome', 'browser', 'process', 'Buffer', 'require',
  '__dirname', '__filename', 'global', 'setImmediate', 'localStorage', 'fetch', 'XMLHttpRequest',
];

/**
 * The APIs that open a connection (or a dispatcher that would). In native-host/ only the
 * connection gate's own modules may use them: every connection the host or the CLI opens goes
 * through native-host/transport/timing-connector.ts and its gate (connection-gate.ts).
 * test/connection-gate-lint.test.ts plants each one and checks it is caught.
 */
export const connectionApis = {
  'node:net': ['connect', 'createConnection', 'Socket'],
  'node:tls': ['connect', 'TLSSocket'],
  'node:http': ['request', 'get', 'Agent', 'globalAgent', 'ClientRequest'],
  'node:https': ['request', 'get', 'Agent', 'globalAgent'],
  'node:http2': ['connect'],
  'node:dgram': ['createSocket'],
  undici: [
    'fetch', 'request', 'stream', 'pipeline', 'connect', 'upgrade', 'Client', 'Pool', 'Agent', 'BalancedPool',
    'ProxyAgent', 'EnvHttpProxyAgent', 'RetryAgent', 'H2CClient', 'Dispatcher', 'buildConnector', 'WebSocket',
    'EventSource', 'setGlobalDispatcher', 'getGlobalDispatcher', 'MockAgent',
  ],
};
export const connectionGlobals = ['fetch', 'WebSocket', 'EventSource', 'XMLHttpRequest'];
const gateMessage = 'Connections go through native-host/transport/timing-connector.ts (the connection gate: bad ports, Private Network Access).';
const connectionImportPaths = Object.entries(connectionApis).flatMap(([name, importNames]) => {
  const bare = name.replace(/^node:/, '');
  return [...new Set([name, bare])].map((n) => ({ name: n, importNames, allowTypeImports: true, message: gateMessage }));
});
// undici's internals (`undici/lib/...`) would reach the same dialers by another path.
const connectionImportPatterns = [{ group: ['undici/*'], allowTypeImports: true, message: gateMessage }];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', process: 'readonly', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly' } },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: srcForbiddenImports.filter((m) => !m.endsWith('/*')).map((name) => ({ name, message: 'src/ is pure: platform code belongs in native-host/ or extension/.' })),
        patterns: [{ group: ['undici/*', 'node:*'], message: 'src/ is pure: platform code belongs in native-host/ or extension/.' }],
      }],
      'no-restricted-globals': ['error', ...srcForbiddenGlobals.map((name) => ({ name, message: 'src/ is pure: pass platform objects in.' }))],
    },
  },
  {
    // One adapter per platform (docs/architecture.md, "Conventions"): only extension/platform/browser-api.ts imports the polyfill,
    // and nothing in extension/ reaches for Chrome's callback-style `chrome.*` global.
    files: ['extension/**/*.ts'],
    ignores: ['extension/platform/browser-api.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'webextension-polyfill', message: 'Import { browser } from extension/platform/browser-api.ts, the one WebExtension adapter.' }] }],
    },
  },
  {
    files: ['extension/**/*.ts'],
    rules: {
      'no-restricted-globals': ['error', { name: 'chrome', message: 'Use `browser` from extension/platform/browser-api.ts (promise-based in both browsers).' }],
    },
  },
  {
    // The host and the store serve the CLI, never the reverse (docs/architecture.md): what they share
    // (a run, its summary) lives in src/run and native-host/run. test/layering.test.ts checks the graph.
    files: ['native-host/host/**/*.ts', 'native-host/store/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/cli', '**/cli/*'], message: 'native-host/host and native-host/store must not import native-host/cli; move what both need to src/ or native-host/run.' }] }],
    },
  },
  {
    files: ['native-host/**/*.ts'],
    ignores: ['native-host/cli/**', '**/*.test.ts'],
    rules: {
      // The native host's stdout carries frames only; logging goes to stderr.
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  {
    // One gate for every connection (connection-gate.ts). The demo's link relay forwards to the
    // demo server it started itself, on loopback; it is the one other place that connects.
    files: ['native-host/**/*.ts'],
    ignores: ['**/*.test.ts', 'native-host/transport/timing-connector.ts', 'native-host/transport/undici-transport.ts', 'native-host/demo/relay-connection.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths: connectionImportPaths, patterns: connectionImportPatterns }],
      'no-restricted-globals': ['error', ...connectionGlobals.map((name) => ({ name, message: gateMessage }))],
    },
  },
  {
    // undici-transport.ts hands undici the gate's sockets: it may build a Client, nothing that dials.
    files: ['native-host/transport/undici-transport.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        paths: connectionImportPaths.map((p) => ({ ...p, importNames: p.importNames.filter((n) => n !== 'Client') })),
        // undici's Client module itself (undici-modules.d.ts: a start that skips undici's index);
        // gitignore patterns re-include a file only through each of its folders.
        patterns: connectionImportPatterns.map((p) => ({ ...p, group: [...p.group, '!undici/lib', 'undici/lib/*', '!undici/lib/dispatcher', 'undici/lib/dispatcher/*', '!undici/lib/dispatcher/client'] })),
      }],
      'no-restricted-globals': ['error', ...connectionGlobals.map((name) => ({ name, message: gateMessage }))],
    },
  },
);
