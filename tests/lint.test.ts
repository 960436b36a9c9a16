/**
 * Lint, format and layering of the whole tree, each a test that fails with the tool's own report:
 * ESLint with typescript-eslint (eslint.config.mjs), Prettier (.prettierrc.json, .prettierignore),
 * dependency-cruiser (.dependency-cruiser.cjs) and clang-format 14 for the C (.clang-format).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { run } from './cli/cli-helpers';

const repo = join(__dirname, '..');
const bin = (name: string) => join(repo, 'node_modules', '.bin', name);

/** Runs a tool in the repository root (asynchronously: ESLint may take minutes on a busy machine). */
async function runTool(command: string, args: string[]): Promise<{ status: number | null; output: string }> {
    const result = await run(command, args, { env: { NO_COLOR: '1', FORCE_COLOR: '0' }, timeoutMs: 900_000 });
    return {
        status: result.status,
        output: `$ ${command} ${args.join(' ')}\n${result.stdout}${result.stderr}`.trimEnd(),
    };
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
        const { status, output } = await runTool(bin('eslint'), ['--max-warnings', '0', '.']);
        expect(status, output).toBe(0);
    });

    test(
        'Prettier finds every TypeScript/JavaScript, CSS and JSON config file formatted',
        { timeout: 120_000 },
        async () => {
            const { status, output } = await runTool(bin('prettier'), ['--check', '.']);
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
            const { status, output } = await runTool(bin('depcruise'), [
                '--config',
                '.dependency-cruiser.cjs',
                ...sources,
            ]);
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
        const { status, output } = await runTool(tool!, ['--dry-run', '--Werror', ...files]);
        expect(status, output).toBe(0);
    });
});
