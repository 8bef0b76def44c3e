import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { CodedError, isCodedError } from '../src/core/coded-error';
import { DiscoveryError } from '../src/discovery/errors';
import { ContentMessageError } from '../src/page/messages/parse-content-message';
import { UiRequestError } from '../src/page/messages/parse-ui-request';
import { SettingsError } from '../src/page/messages/settings';
import { ProtocolError } from '../src/protocol/errors';
import { SchedulerError } from '../src/scheduler/errors';
import { HistogramError } from '../src/stats/histogram-error';
import { CliError } from '../native-host/cli/cli-error';
import { DemoPageError } from '../native-host/demo/corpus';
import { BoundedFileError } from '../native-host/files/read-bounded-file';
import { LinkProxyError } from '../native-host/demo/link-proxy';
import { SynthSizeError } from '../native-host/demo/synth-bytes';
import { InstallError } from '../native-host/install/install-error';
import { LoadError } from '../native-host/run/load-errors';
import { StoreError } from '../native-host/store/store-errors';
import { CaFileError } from '../native-host/transport/ca-file';
import { HostMappingError } from '../native-host/transport/host-mapping';
import { TransportError } from '../native-host/transport/transport-errors';
import { HostRequestError } from '../extension/background/native-port';
import { ActionError } from '../extension/background/page-actions';
import { BenchCorpusError } from '../bench/corpus/bench-page-types';
import { DemoLinkError } from '../bench/demo/demo-link-error';
import { LinkError } from '../bench/link/link-error';
import { OriginsError } from '../bench/origins/origins-errors';
import { ReportError } from '../bench/report/load-results';
import { BenchRunError } from '../bench/cli/bench-run-error';

const repoRoot = join(__dirname, '..');

/** Every class declaration in the tree whose `extends` clause names `Error` itself. */
function classesExtendingError(): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'results') walk(path);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) {
        const sf = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
        const visit = (node: ts.Node): void => {
          if (ts.isClassLike(node)) {
            for (const clause of node.heritageClauses ?? []) {
              if (clause.token === ts.SyntaxKind.ExtendsKeyword && clause.types.some((t) => t.expression.getText(sf) === 'Error')) {
                found.push(`${relative(repoRoot, path)}: ${node.name?.text ?? '(anonymous)'}`);
              }
            }
          }
          ts.forEachChild(node, visit);
        };
        visit(sf);
      }
    }
  };
  for (const top of ['src', 'native-host', 'extension', 'bench']) walk(join(repoRoot, top));
  return found;
}

describe('one coded-error base', () => {
  test('no class in src, native-host, extension or bench extends Error except CodedError', () => {
    expect(classesExtendingError()).toEqual(['src/core/coded-error.ts: CodedError']);
  });

  // One instance per layer's class, built as its layer builds it; each keeps the code it was given.
  const errors: Array<[CodedError, string, string]> = [
    [new DiscoveryError('E_INVALID_BASE_URL', 'm'), 'DiscoveryError', 'E_INVALID_BASE_URL'],
    [new ContentMessageError('m'), 'ContentMessageError', 'E_INVALID_MESSAGE'],
    [new UiRequestError('E_UNKNOWN_TYPE', 'm'), 'UiRequestError', 'E_UNKNOWN_TYPE'],
    [new SettingsError('m'), 'SettingsError', 'E_INVALID_SETTINGS'],
    [new ProtocolError('E_INVALID_FIELD', 'm', 7), 'ProtocolError', 'E_INVALID_FIELD'],
    [new SchedulerError('E_CONNECT_FAILED', 'm', 'ECONNREFUSED'), 'SchedulerError', 'E_CONNECT_FAILED'],
    [new HistogramError('E_HISTOGRAM_VALUE', 'm', 'value'), 'HistogramError', 'E_HISTOGRAM_VALUE'],
    [new CliError('E_USAGE', 'm'), 'CliError', 'E_USAGE'],
    [new DemoPageError('E_DEMO_UNKNOWN_PAGE', 'm'), 'DemoPageError', 'E_DEMO_UNKNOWN_PAGE'],
    [new LinkProxyError('m'), 'LinkProxyError', 'E_LINK_OPTIONS'],
    [new SynthSizeError('m'), 'SynthSizeError', 'E_DEMO_BODY_SIZE'],
    [new InstallError('E_INSTALL_WRITE', 'm'), 'InstallError', 'E_INSTALL_WRITE'],
    [new LoadError('E_CONNECT_FAILED', 'm', 'ECONNREFUSED'), 'LoadError', 'E_CONNECT_FAILED'],
    [new StoreError('E_STORE_LOCKED', 'm', { cause: new Error('LEVEL_LOCKED') }), 'StoreError', 'E_STORE_LOCKED'],
    [new BoundedFileError('E_NOT_REGULAR_FILE', 'm'), 'BoundedFileError', 'E_NOT_REGULAR_FILE'],
    [new CaFileError('m'), 'CaFileError', 'E_CA_FILE'],
    [new HostMappingError('m'), 'HostMappingError', 'E_INVALID_HOST_MAPPING'],
    [new TransportError('E_DESYNC', 'm'), 'TransportError', 'E_DESYNC'],
    [new HostRequestError('E_TIMEOUT', 'm'), 'HostRequestError', 'E_TIMEOUT'],
    [new ActionError('E_NO_PAGE', 'm'), 'ActionError', 'E_NO_PAGE'],
    [new BenchCorpusError('E_BENCH_UNKNOWN_PAGE', 'm'), 'BenchCorpusError', 'E_BENCH_UNKNOWN_PAGE'],
    [new DemoLinkError('E_DEMO_SERVER', 'm'), 'DemoLinkError', 'E_DEMO_SERVER'],
    [new LinkError('E_LINK_SETUP', 'm'), 'LinkError', 'E_LINK_SETUP'],
    [new OriginsError('E_NGINX_MISSING', 'm'), 'OriginsError', 'E_NGINX_MISSING'],
    [new ReportError('E_REPORT_INPUT', 'm'), 'ReportError', 'E_REPORT_INPUT'],
    [new BenchRunError('E_RUN_FAILED', 'm'), 'BenchRunError', 'E_RUN_FAILED'],
  ];

  test.each(errors)('%p derives from CodedError with its name and code', (error, name, code) => {
    expect(error).toBeInstanceOf(CodedError);
    expect(isCodedError(error)).toBe(true);
    expect(error.name).toBe(name);
    expect(error.code).toBe(code);
    expect(error.stack).toContain(`${name}: `);
  });

  test('extra fields stay: the protocol id, the transport cause code, the histogram field, the store cause', () => {
    expect(new ProtocolError('E_INVALID_FIELD', 'm', 7).id).toBe(7);
    expect(new SchedulerError('E_CONNECT_FAILED', 'm', 'ECONNREFUSED').causeCode).toBe('ECONNREFUSED');
    expect(new LoadError('E_CONNECT_FAILED', 'm', 'ECONNREFUSED').causeCode).toBe('ECONNREFUSED');
    expect(new HistogramError('E_HISTOGRAM_VALUE', 'm', 'value').field).toBe('value');
    expect((new StoreError('E_STORE_LOCKED', 'm', { cause: 'why' }).cause)).toBe('why');
    expect(new LinkError('E_LINK_SETUP', 'ip failed').message).toBe('E_LINK_SETUP: ip failed');
  });
});
