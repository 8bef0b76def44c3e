// Prints one plain closing line, `jest: N passed, N failed, N skipped`, after Jest's own summary,
// so a reader (or CI) can see the outcome without parsing Jest's table.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    process.stdout.write(`\njest: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped\n`);
  }
}
module.exports = SummaryReporter;
