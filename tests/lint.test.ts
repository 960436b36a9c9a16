/**
 * Lint, format and layering of the whole tree, each a test that fails with the tool's own report:
 * ESLint with typescript-eslint (eslint.config.mjs), Prettier (.prettierrc.json, .prettierignore),
 * dependency-cruiser (.dependency-cruiser.cjs) and clang-format 14 for the C (.clang-format).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';

const repo = join(__dirname, '..');
const bin = (name: string) => join(repo, 'node_modules', '.bin', name);

/**
 * Runs a tool in the repository root; its exit status and everything it printed. Asynchronous: type-aware
 * ESLint takes over a minute on a loaded machine, and a blocked test worker misses vitest's RPC deadline.
 */
function run(command: string, args: string[]): Promise<{ status: number | null; output: string }> {
    return new Promise(resolve => {
        const child = spawn(command, args, { cwd: repo, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
        let output = '';
        child.stdout.on('data', chunk => (output += String(chunk)));
        child.stderr.on('data', chunk => (output += String(chunk)));
        const done = (status: number | null, error = '') =>
            resolve({ status, output: `$ ${command} ${args.join(' ')}\n${output}${error}`.trimEnd() });
        child.on('error', e => done(null, `\n${e.message}`));
        child.on('close', status => done(status));
    });
}

/** The C sources clang-format checks: runtime-c/ and bench/, without build output. */
function cSources(): string[] {
    const found: string[] = [];
    const visit = (dir: string) => {
        for (const entry of readdirSync(dir)) {
            if (['build', 'results', 'node_modules'].includes(entry)) continue;
            const path = join(dir, entry);
            if (statSync(path).isDirectory()) visit(path);
            else if (/\.[ch]$/.test(entry)) found.push(relative(repo, path));
        }
    };
    for (const dir of ['runtime-c', 'bench']) visit(join(repo, dir));
    return found.sort();
}

/** clang-format 14 exactly: another major version formats differently. */
function clangFormat(): string | undefined {
    for (const candidate of ['clang-format-14', 'clang-format']) {
        const version = spawnSync(candidate, ['--version'], { encoding: 'utf-8' });
        if (version.status === 0 && /version 14\./.test(version.stdout)) return candidate;
    }
    return undefined;
}

describe('lint and format', () => {
    test('ESLint (typescript-eslint, type-aware) reports nothing', { timeout: 300_000 }, async () => {
        const { status, output } = await run(bin('eslint'), ['--max-warnings', '0', '.']);
        expect(status, output).toBe(0);
    });

    test(
        'Prettier finds every TypeScript/JavaScript, CSS and JSON config file formatted',
        { timeout: 120_000 },
        async () => {
            const { status, output } = await run(bin('prettier'), ['--check', '.']);
            expect(status, output).toBe(0);
        },
    );

    test(
        'dependency-cruiser: the layering holds (no cycles, no orphans, no import across the layers)',
        { timeout: 120_000 },
        async () => {
            const sources = ['language/src', 'diagram/src', 'extension/src', 'contract/src'].filter(dir =>
                existsSync(join(repo, dir)),
            );
            const { status, output } = await run(bin('depcruise'), ['--config', '.dependency-cruiser.cjs', ...sources]);
            expect(status, output).toBe(0);
        },
    );

    test('clang-format 14 finds the C of runtime-c/ and bench/ formatted', async () => {
        const tool = clangFormat();
        expect(
            tool,
            "clang-format 14 is not installed: run 'node scripts/setup.mjs' as root (Debian's clang-format-14)",
        ).toBeDefined();
        const files = cSources();
        expect(files.length).toBeGreaterThan(20);
        const { status, output } = await run(tool!, ['--dry-run', '--Werror', ...files]);
        expect(status, output).toBe(0);
    });
});
