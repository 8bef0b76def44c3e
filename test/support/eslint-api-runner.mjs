// Runs ESLint's Node API outside Jest. Jest executes modules in `vm` contexts, where ESLint cannot
// `import()` the repository's eslint.config.mjs (it needs --experimental-vm-modules), so
// test/purity.test.ts spawns this script with plain `node` instead.
//
// stdin:  {"cwd": string, "texts": [{"code": string, "filePath": string}], "files": string[]}
// stdout: {"texts": LintSummary[], "files": LintSummary[],
//          "config": {"srcForbiddenImports": string[], "srcForbiddenGlobals": string[],
//                     "connectionApis": {[module]: string[]}, "connectionGlobals": string[]}}
//         LintSummary = {filePath, errorCount, messages: [{ruleId, severity, message, line}]}
import { ESLint } from 'eslint';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

let input = '';
process.stdin.setEncoding('utf8');
for await (const c of process.stdin) input += c;
const job = JSON.parse(input);

const eslint = new ESLint({ cwd: job.cwd });
const summarize = (results) =>
  results.map((r) => ({
    filePath: r.filePath,
    errorCount: r.errorCount,
    fatalErrorCount: r.fatalErrorCount,
    messages: r.messages.map((m) => ({ ruleId: m.ruleId, severity: m.severity, message: m.message, line: m.line })),
  }));

const texts = [];
for (const t of job.texts ?? []) texts.push(...summarize(await eslint.lintText(t.code, { filePath: t.filePath })));
const files = job.files && job.files.length > 0 ? summarize(await eslint.lintFiles(job.files)) : [];
const { srcForbiddenImports, srcForbiddenGlobals, connectionApis, connectionGlobals } = await import(pathToFileURL(join(job.cwd, 'eslint.config.mjs')).href);
process.stdout.write(JSON.stringify({ texts, files, config: { srcForbiddenImports, srcForbiddenGlobals, connectionApis, connectionGlobals } }));
