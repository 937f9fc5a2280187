// The last line of `npm test`: `tests: N passed, N failed, N skipped` over every project, for people
// and for CI harnesses that read it. In a file that failed as a whole (a beforeAll threw, an import
// broke) every test that did not pass failed, and a file with no test at all counts as one failure.
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    const totals = { passed: 0, failed: unhandledErrors.length, skipped: 0 };
    for (const module of testModules) {
      const broken = module.state() === 'failed' && module.errors().length > 0;
      const tests = [...module.children.allTests()];
      if (broken && tests.length === 0) totals.failed++;
      for (const test of tests) {
        const state = test.result().state;
        if (state === 'passed') totals.passed++;
        else if (state === 'failed' || broken) totals.failed++;
        else totals.skipped++;
      }
    }
    console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  }
}
