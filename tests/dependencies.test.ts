import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';

const repo = join(__dirname, '..');
const SINGLE_COPY = ['langium', 'langium-sprotty', 'vscode-languageclient', 'vscode-languageserver', 'vscode-languageserver-protocol', 'sprotty', 'sprotty-protocol', 'sprotty-vscode', 'inversify', 'elkjs'];

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

    test('the diagram stack is pinned exactly on the Langium 3.5 line', () => {
        const read = (dir: string) => JSON.parse(readFileSync(join(repo, dir, 'package.json'), 'utf-8'));
        const language = read('language'), diagram = read('diagram'), extension = read('extension'), contract = read('contract');
        expect(language.dependencies['langium-sprotty']).toBe('3.5.0');
        expect(language.dependencies.elkjs).toBe('0.8.2');
        expect(diagram.dependencies.sprotty).toBe('1.4.0');
        expect(diagram.dependencies.inversify).toMatch(/^6\.2\.\d+$/);
        expect(extension.dependencies['vscode-languageclient']).toBe('9.0.1');
        expect(extension.dependencies['sprotty-vscode']).toBe('1.0.0');
        expect(contract.devDependencies['json-schema-to-typescript']).toBe('15.0.4');
        for (const pkg of [language, diagram, extension, contract]) {
            for (const version of Object.values({ ...pkg.dependencies, ...pkg.devDependencies }) as string[]) expect(version).toMatch(/^\d+\.\d+\.\d+$/);
        }
    });

    test('backend dependencies are pinned', () => {
        const pyproject = readFileSync(join(repo, 'backend', 'pyproject.toml'), 'utf-8');
        const deps = /dependencies = \[([\s\S]*?)\]/.exec(pyproject)![1].split('\n').map(l => l.trim()).filter(l => l.startsWith('"'));
        expect(deps.length).toBeGreaterThan(5);
        for (const dep of deps) expect(dep).toMatch(/==/);
    });
});
