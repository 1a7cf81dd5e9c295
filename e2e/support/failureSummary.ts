import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

// Prints each failed attempt's error once more after the list reporter's summary, trimmed to its
// first lines, so the last lines of a CI log say what went wrong and where.
const MAX_LINES = 14;

const strip = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

export default class FailureSummary implements Reporter {
  private readonly failures: Array<{ title: string; lines: string[] }> = [];

  printsToStdio(): boolean {
    return true;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status === 'skipped' || result.status === test.expectedStatus) return;
    const error = result.errors[0];
    const message = strip(error?.message ?? result.status).split('\n').filter((line) => line.trim() !== '');
    const where = error?.location ? [`at ${error.location.file.replace(/^.*\/e2e\//, '')}:${error.location.line}`] : [];
    this.failures.push({
      title: `${test.location.file.replace(/^.*\/e2e\//, '')}:${test.location.line} › ${test.title} (${result.status}, attempt ${result.retry + 1}, ${Math.round(result.duration / 1000)} s)`,
      lines: [...message.slice(0, MAX_LINES), ...where],
    });
  }

  onEnd(result: FullResult): void {
    if (this.failures.length === 0) return;
    console.log(`\nfailures (${result.status}):`);
    for (const failure of this.failures) {
      console.log(`  ${failure.title}`);
      for (const line of failure.lines) console.log(`    ${line}`);
    }
  }
}
