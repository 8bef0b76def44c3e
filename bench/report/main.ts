/**
 * `node dist/bench/report.js <results.json> [<results.json> …] [--out DIR] [--figures DIR] [--why FILE]
 * [--summarize DIR]` — bench/RESULTS.md and its figures from results files of the packet-level
 * benchmark, or with `--summarize` the summaries and gzipped raw files git keeps (write-report.ts).
 * A bad file or command line prints its code and a sentence, exit status 2.
 */
import { ReportError } from './load-results';
import { parseReportArgs, writeReport } from './write-report';

try {
  for (const p of writeReport(parseReportArgs(process.argv.slice(2)))) process.stdout.write(`wrote ${p}\n`);
} catch (err) {
  if (!(err instanceof ReportError)) throw err;
  if (err.help) {
    process.stdout.write(`${err.message}\n`);
  } else {
    process.stderr.write(`report: ${err.code}: ${err.message}\n`);
    process.exitCode = 2;
  }
}
