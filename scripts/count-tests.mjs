// Prints `tests: N passed, N failed` from a vitest JSON report; exits 1 when the report is missing.
// A test file that failed to load (no test results, status failed) counts as one failure.
import fs from 'node:fs';

const file = process.argv[2] ?? 'reports/vitest.json';
if (!fs.existsSync(file)) {
  console.error(`no vitest report at ${file}`);
  process.exit(1);
}
const report = JSON.parse(fs.readFileSync(file, 'utf8'));
const brokenFiles = (report.testResults ?? []).filter(
  (s) => s.status === 'failed' && !(s.assertionResults ?? []).some((a) => a.status === 'failed'),
).length;
const passed = report.numPassedTests ?? 0;
let failed = (report.numFailedTests ?? 0) + brokenFiles;
// a run that failed outside any test (config error, unhandled error) must not read as green
if (report.success === false && failed === 0) failed = 1;
console.log(`tests: ${passed} passed, ${failed} failed`);
