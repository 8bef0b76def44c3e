import { execFile } from 'node:child_process';
import { join } from 'node:path';

const repoRoot = join(__dirname, '..', '..');
const RUNNER = join(__dirname, 'eslint-api-runner.mjs');

export interface LintMessage {
  ruleId: string | null;
  severity: number;
  message: string;
  line: number;
}
export interface LintSummary {
  filePath: string;
  errorCount: number;
  fatalErrorCount: number;
  messages: LintMessage[];
}
export interface LintOutput {
  texts: LintSummary[];
  files: LintSummary[];
  config: { srcForbiddenImports: string[]; srcForbiddenGlobals: string[]; connectionApis: Record<string, string[]>; connectionGlobals: string[] };
}

/**
 * ESLint's Node API (`new ESLint({ cwd }).lintText / lintFiles`), run in a plain `node` child:
 * inside Jest's vm sandbox ESLint cannot `import()` eslint.config.mjs.
 */
export function eslintApi(texts: Array<{ code: string; filePath: string }>, files: string[]): Promise<LintOutput> {
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, [RUNNER], { cwd: repoRoot, maxBuffer: 64 * 1024 * 1024, timeout: 55_000 }, (err, stdout, stderr) => {
      if (err) {
        reject(new Error(`eslint runner failed: ${err.message}\n${stderr}`));
        return;
      }
      resolve(JSON.parse(stdout) as LintOutput);
    });
    child.stdin?.end(JSON.stringify({ cwd: repoRoot, texts, files }));
  });
}
