/**
 * Behaviour IAM-3, the other direction: a declared grant that no code path uses. After a run that
 * included every handler and integration test file, in full (no name filter), each route's declared
 * key families and verbs (lambdas/routes.ts `storage`) must each have been used by some test
 * (test/support/record-storage-access.ts writes what each file's requests used), or be listed in
 * test/support/storage-unexercised.ts with the reason no test reaches it. Partial runs check nothing here.
 * Plain JavaScript: jest loads reporters without its transform.
 */
const { readdirSync, readFileSync, existsSync } = require('node:fs');
const { join, relative } = require('node:path');

const watched = ['test/handlers', 'test/integration'];

class StorageAccessReporter {
  constructor(globalConfig) {
    this.globalConfig = globalConfig;
    this.error = undefined;
  }

  onRunComplete(_contexts, results) {
    const dir = process.env.STORAGE_ACCESS_DIR;
    const root = this.globalConfig.rootDir;
    if (!dir || !existsSync(dir) || this.globalConfig.testNamePattern) return;
    const expected = watched.flatMap((folder) =>
      readdirSync(join(root, folder))
        .filter((name) => name.endsWith('.test.ts'))
        .map((name) => `${folder}/${name}`),
    );
    const ran = new Set(results.testResults.map((result) => relative(root, result.testFilePath)));
    if (!expected.every((file) => ran.has(file))) return;
    if (results.testResults.some((result) => expected.includes(relative(root, result.testFilePath)) && result.numPendingTests > 0)) return;
    const reports = readdirSync(dir)
      .filter((name) => name.endsWith('.json'))
      .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')));
    const byFile = new Map(reports.map((report) => [report.file, report]));
    if (!expected.every((file) => byFile.has(file))) return;
    const key = (entry) => entry.join(' ');
    // Evidence comes from the handler and integration tests only, so a run of just those folders
    // and a run of everything judge alike (e2e and browser tests reach more paths, not always).
    const used = new Set(reports.filter((report) => expected.includes(report.file)).flatMap((report) => report.used.map(key)));
    const declared = reports[0].declared;
    const unused = declared.filter((entry) => !used.has(key(entry)));
    const stale = reports[0].excused.filter((entry) => used.has(key(entry)));
    const problems = [
      ...unused.map((entry) => `${entry[0]} declares ${entry[1]}: ${entry[2]}, which no test used`),
      ...stale.map((entry) => `${entry[0]} uses ${entry[1]}: ${entry[2]} in a test, yet test/support/storage-unexercised.ts lists it`),
    ];
    if (problems.length === 0) return;
    this.error = new Error(
      `behaviour IAM-3: declared storage access without evidence. Remove it from the row (lambdas/routes.ts \`storage\`), ` +
        `add a test that reaches it, or say why none can in test/support/storage-unexercised.ts:\n- ${problems.join('\n- ')}`,
    );
    console.error(`\n${this.error.message}\n`);
  }

  getLastError() {
    return this.error;
  }
}

module.exports = StorageAccessReporter;
