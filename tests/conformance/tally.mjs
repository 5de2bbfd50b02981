// Counts the conformance suite's results: reads every <scenario>-<time>/checks.json under the
// results folder (argv[2]) and the expected-failures file (argv[3]), prints the tally lines and
// exits 1 on an unexpected failure or an expected failure that now passes.
// A scenario passes when none of its checks is a FAILURE or a WARNING (the suite's own rule).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const [results, expectedFile] = process.argv.slice(2);
const expected = new Set(
  readFileSync(expectedFile, "utf8")
    .split("\n")
    .map((line) => line.match(/^\s*-\s*(\S+)/)?.[1])
    .filter(Boolean),
);

function checkFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return checkFiles(path);
    return name === "checks.json" ? [path] : [];
  });
}

const outcome = new Map();
for (const file of checkFiles(results)) {
  const scenario = relative(results, file)
    .replace(/\/checks\.json$/, "")
    .replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, "");
  const checks = JSON.parse(readFileSync(file, "utf8"));
  const bad = checks.filter((check) => check.status === "FAILURE" || check.status === "WARNING");
  outcome.set(scenario, bad.map((check) => `${check.name}: ${check.errorMessage ?? check.description}`));
}

const passed = [];
const failed = [];
const expectedFailed = [];
const nowPassing = [];
for (const [scenario, problems] of [...outcome].sort()) {
  if (expected.has(scenario)) (problems.length ? expectedFailed : nowPassing).push(scenario);
  else if (problems.length) failed.push([scenario, problems]);
  else passed.push(scenario);
}
for (const scenario of passed) console.log(`  passed: ${scenario}`);
for (const [scenario, problems] of failed) {
  console.log(`  FAILED: ${scenario}`);
  for (const problem of problems) console.log(`    - ${problem}`);
}
for (const scenario of nowPassing) console.log(`  passes but is listed as expected to fail: ${scenario}`);
const missing = [...expected].filter((scenario) => !outcome.has(scenario));
console.log(`conformance: ${passed.length} passed, ${failed.length} failed`);
console.log(
  `expected failures: ${expectedFailed.length} (listed in ${expectedFile})` +
    (nowPassing.length ? `, ${nowPassing.length} of them now pass: remove them from the list` : "") +
    (missing.length ? `, ${missing.length} did not run` : ""),
);
process.exit(failed.length || nowPassing.length || passed.length === 0 ? 1 : 0);
