import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';

const repo = join(__dirname, '..');
const SINGLE_COPY = ['langium', 'vscode-languageclient', 'vscode-languageserver', 'sprotty', 'inversify', 'elkjs'];

describe('dependency hygiene', () => {
    test.each(SINGLE_COPY)('npm ls shows at most one version of %s', name => {
        let output = '';
        try {
            output = execFileSync('npm', ['ls', name, '--all', '--json'], { cwd: repo, encoding: 'utf-8', stdio: ['ignore', 'pipe', 'ignore'] });
        } catch (error) {
            output = (error as { stdout: string }).stdout; // npm ls exits 1 on problems but still prints the tree
        }
        const versions = new Set<string>();
        const walk = (node: { dependencies?: Record<string, { version?: string; dependencies?: object }> }) => {
            for (const [dep, child] of Object.entries(node.dependencies ?? {})) {
                if (dep === name && child.version) versions.add(child.version);
                walk(child as never);
            }
        };
        walk(JSON.parse(output));
        expect([...versions].length, `${name}: ${[...versions].join(', ')}`).toBeLessThanOrEqual(1);
    });

    test('langium and langium-cli are pinned exactly on the 3.5 line', () => {
        const pkg = JSON.parse(readFileSync(join(repo, 'language', 'package.json'), 'utf-8'));
        expect(pkg.dependencies.langium).toBe('3.5.0');
        expect(pkg.devDependencies['langium-cli']).toBe('3.5.2');
    });

    test('backend dependencies are pinned', () => {
        const pyproject = readFileSync(join(repo, 'backend', 'pyproject.toml'), 'utf-8');
        const deps = /dependencies = \[([\s\S]*?)\]/.exec(pyproject)![1].split('\n').map(l => l.trim()).filter(l => l.startsWith('"'));
        expect(deps.length).toBeGreaterThan(5);
        for (const dep of deps) expect(dep).toMatch(/==/);
    });
});
