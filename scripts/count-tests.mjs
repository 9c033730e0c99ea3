// Sums vitest JSON reports into one line `tests: N passed, N failed` (the last line printed).
// Usage: node scripts/count-tests.mjs [LABEL=]REPORT.json ...   (default reports/vitest.json)
// For each report it prints its own counts and the tests the version gate left out on that server
// (test/support/server-version.ts names them `... [needs Kubernetes 1.N+: why]`). A skipped test without that
// tag is a silent skip and counts as a failure. A missing report, a test file that failed to load, or a run that
// failed outside any test counts as one failure. Exits 1 when anything failed.
import fs from 'node:fs';

const args = process.argv.slice(2);
if (args.length === 0) args.push('reports/vitest.json');
const GATE = /\[needs Kubernetes 1\.\d+\+: [^\]]+\]/;
let passed = 0;
let failed = 0;
for (const arg of args) {
  const eq = arg.indexOf('=');
  const [label, file] = eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, arg];
  if (!fs.existsSync(file)) {
    console.log(`${label}: no vitest report at ${file} (counted as 1 failure)`);
    failed += 1;
    continue;
  }
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  const files = report.testResults ?? [];
  const brokenFiles = files.filter(
    (s) => s.status === 'failed' && !(s.assertionResults ?? []).some((a) => a.status === 'failed'),
  ).length;
  const results = files.flatMap((s) =>
    (s.assertionResults ?? []).map((a) => ({ ...a, file: s.name.replace(`${process.cwd()}/`, '') })),
  );
  const skipped = results.filter(
    (a) => a.status === 'skipped' || a.status === 'pending' || a.status === 'todo',
  );
  const gated = skipped.filter((a) => GATE.test(a.fullName ?? a.title));
  const silent = skipped.filter((a) => !GATE.test(a.fullName ?? a.title));
  const p = report.numPassedTests ?? 0;
  let f = (report.numFailedTests ?? 0) + brokenFiles + silent.length;
  if (report.success === false && f === 0) f = 1; // failed outside any test (config error, unhandled error)
  console.log(`${label}: ${p} passed, ${f} failed, ${gated.length} left out by the version gate`);
  for (const a of gated) console.log(`  left out: ${a.file} > ${a.fullName ?? a.title}`);
  for (const a of silent)
    console.log(`  SILENTLY SKIPPED (counted as failed): ${a.file} > ${a.fullName ?? a.title}`);
  passed += p;
  failed += f;
}
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
