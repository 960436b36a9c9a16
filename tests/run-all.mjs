#!/usr/bin/env node
/**
 * Runs every test suite (vitest, pytest, ctest, ...) one after the other, each
 * through its own runner, and prints one summary at the end. Exits non-zero
 * if any suite fails or any suite ran no test. Run `npm test`, which first
 * sets everything up (scripts/setup.mjs).
 *
 * `node tests/run-all.mjs language backend` runs only the named suites.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const results = join(root, 'test-results');
mkdirSync(results, { recursive: true });

/** A vitest suite: run in `cwd` (with `config`, if given), counts from its JSON report. */
function vitestSuite(name, what, cwd, config) {
    return {
        name,
        what,
        cwd,
        command: join(root, 'node_modules', '.bin', 'vitest'),
        args: [
            'run',
            ...(config ? ['--config', config] : []),
            '--reporter=default',
            '--reporter=json',
            `--outputFile=${join(results, 'vitest.json')}`,
        ],
        counts: () => vitestCounts(join(results, 'vitest.json')),
    };
}

/** Each suite: how to run it and how to read its counts afterwards. */
const SUITES = [
    vitestSuite('language', 'vitest: grammar, validation, LSP features, IR export, fuzz', join(root, 'language')),
    vitestSuite(
        'cross',
        'vitest: the CLI as a process, samples, golden IR, dependency hygiene, lint/format/layering',
        root,
        'tests/vitest.config.ts',
    ),
    vitestSuite(
        'diagram',
        'vitest + Chromium: the diagram webview rendering language-server models',
        join(root, 'diagram'),
    ),
    vitestSuite(
        'extension',
        "vitest: the extension's run → plot → ETP edit through the language server, against the real backend and CLI",
        join(root, 'extension'),
    ),
    vitestSuite(
        'vscode',
        'code-server + Chromium: the packaged extension in a real VS Code',
        join(root, 'tests', 'vscode'),
        'vitest.config.ts',
    ),
    vitestSuite(
        'theia',
        'Eclipse Theia + Chromium: the same packaged extension in a Theia browser application',
        join(root, 'tests', 'theia'),
        'vitest.config.ts',
    ),
    {
        name: 'backend',
        what: 'pytest: IR, PTTS analysis, plan, RPC',
        cwd: join(root, 'backend'),
        command: join(root, 'backend', '.venv', 'bin', 'python'),
        args: [
            '-m',
            'pytest',
            '-q',
            '--color=no',
            '-p',
            'no:cacheprovider',
            `--junitxml=${join(results, 'pytest.xml')}`,
        ],
        counts: () => junitCounts(join(results, 'pytest.xml')),
    },
    {
        name: 'runtime-c',
        what: 'ctest: C runtime and throttler',
        enabled: () => ['lib', 'throttle'].some(part => existsSync(join(root, 'runtime-c', part, 'CMakeLists.txt'))),
        cwd: join(root, 'runtime-c', 'build'),
        command: 'ctest',
        args: ['--output-on-failure', '--output-junit', join(results, 'ctest.xml')],
        counts: () => junitCounts(join(results, 'ctest.xml')),
    },
];

function vitestCounts(file) {
    const report = JSON.parse(readFileSync(file, 'utf-8'));
    // a file that failed without a failed test (it did not load, a hook failed) counts as one failure
    const brokenFiles = (report.testResults ?? []).filter(
        file => file.status === 'failed' && !file.assertionResults?.some(test => test.status === 'failed'),
    ).length;
    return {
        passed: report.numPassedTests,
        failed: report.numFailedTests + brokenFiles,
        skipped: report.numPendingTests + report.numTodoTests,
    };
}

function junitCounts(file) {
    // Sum the <testsuite> elements: pytest's <testsuites> wrapper carries no counts.
    const xml = readFileSync(file, 'utf-8');
    const total = { tests: 0, failures: 0, errors: 0, skipped: 0 };
    for (const [suite] of xml.matchAll(/<testsuite\b[^>]*>/g)) {
        for (const name of Object.keys(total))
            total[name] += Number(new RegExp(`\\b${name}="(\\d+)"`).exec(suite)?.[1] ?? 0);
    }
    return {
        passed: total.tests - total.failures - total.errors - total.skipped,
        failed: total.failures + total.errors,
        skipped: total.skipped,
    };
}

const wanted = process.argv.slice(2);
const summary = [];
for (const suite of SUITES) {
    if (wanted.length > 0 && !wanted.includes(suite.name)) continue;
    if (suite.enabled && !suite.enabled()) continue;
    process.stdout.write(`\n=== ${suite.name}: ${suite.what}\n`);
    const started = Date.now();
    for (const file of ['vitest.json', 'pytest.xml', 'ctest.xml']) rmSync(join(results, file), { force: true });
    const run = spawnSync(suite.command, suite.args, {
        cwd: suite.cwd,
        stdio: 'inherit',
        env: { ...process.env, NO_COLOR: '1' },
    });
    let counts;
    try {
        counts = suite.counts();
    } catch {
        counts = { passed: 0, failed: 1, skipped: 0 };
    }
    const ok = run.status === 0 && counts.failed === 0 && counts.passed > 0;
    summary.push({ ...suite, ...counts, ok, seconds: (Date.now() - started) / 1000, status: run.status });
}

process.stdout.write('\n=== summary\n');
for (const s of summary) {
    const note = s.ok ? '' : s.passed === 0 && s.failed === 0 ? '  (ran no test)' : `  (exit ${s.status})`;
    process.stdout.write(
        `${s.ok ? 'ok  ' : 'FAIL'} ${s.name.padEnd(10)} ${String(s.passed).padStart(5)} passed ${String(s.failed).padStart(4)} failed ${String(s.skipped).padStart(4)} skipped  ${s.seconds.toFixed(1).padStart(6)} s${note}\n`,
    );
}
const passed = summary.reduce((n, s) => n + s.passed, 0);
const failed = summary.reduce((n, s) => n + s.failed + (s.ok || s.failed > 0 ? 0 : 1), 0);
const skipped = summary.reduce((n, s) => n + s.skipped, 0);
process.stdout.write(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
process.exit(summary.length > 0 && summary.every(s => s.ok) ? 0 : 1);
