// `npm test`: typecheck, build, unit + component tests (incl. checks on the built files), then the
// Chromium e2e suite. Without Chromium the e2e suite is skipped LOUDLY, except under CI=true where
// a missing browser is a failure.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ci = process.env.CI === 'true' || process.env.CI === '1';
const reports = join(root, 'test-results');
mkdirSync(reports, { recursive: true });

const totals = { passed: 0, failed: 0, skipped: 0 };
let ok = true;

function run(label, command, args) {
  console.log(`\n== ${label} ==`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
  if (result.status !== 0) {
    ok = false;
    console.error(`\n${label}: FAILED (exit ${result.status ?? result.signal})`);
  }
  return result.status === 0;
}

function vitest(label, config, file) {
  const out = join(reports, file);
  rmSync(out, { force: true });
  run(label, process.execPath, [
    join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--config', config,
    '--reporter=default', '--reporter=json', `--outputFile.json=${out}`,
  ]);
  if (!existsSync(out)) return;
  const report = JSON.parse(readFileSync(out, 'utf8'));
  for (const file of report.testResults) {
    // A file that failed to start (e.g. its beforeAll threw) reports its tests as skipped: they failed.
    const fileFailed = file.status === 'failed';
    for (const t of file.assertionResults) {
      if (t.status === 'passed') totals.passed++;
      else if (t.status === 'failed' || fileFailed) totals.failed++;
      else totals.skipped++;
    }
    if (fileFailed && file.assertionResults.length === 0) totals.failed++;
  }
}

run('typecheck', process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--noEmit']);
const built = run('build', process.execPath, [join(root, 'scripts/build.mjs')]);
vitest('unit and component tests', 'vitest.config.ts', 'unit.json');

if (existsSync(chromium)) {
  if (built) vitest('e2e tests in Chromium', 'vitest.e2e.config.ts', 'e2e.json');
} else {
  const banner = [
    '',
    '!'.repeat(78),
    `!! Chromium not found at ${chromium}: the END-TO-END TESTS DID NOT RUN.`,
    '!! Install it with:   sudo apt-get install -y chromium',
    '!! (or point CHROMIUM_PATH at a Chromium binary), then run npm test again.',
    '!'.repeat(78),
    '',
  ].join('\n');
  console.error(banner);
  if (ci) {
    console.error('CI=true: a missing browser is a failure.');
    ok = false;
  }
}

console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(ok && totals.failed === 0 ? 0 : 1);
