import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

const repo = join(__dirname, '..');
const SINGLE_COPY = [
    'langium',
    'langium-sprotty',
    'vscode-languageclient',
    'vscode-languageserver',
    'vscode-languageserver-protocol',
    'sprotty',
    'sprotty-protocol',
    'sprotty-vscode',
    'inversify',
    'elkjs',
];

describe('dependency hygiene', () => {
    test.each(SINGLE_COPY)('npm ls shows at most one version of %s', name => {
        let output = '';
        try {
            output = execFileSync('npm', ['ls', name, '--all', '--json'], {
                cwd: repo,
                encoding: 'utf-8',
                stdio: ['ignore', 'pipe', 'ignore'],
            });
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
        const language = read('language'),
            diagram = read('diagram'),
            extension = read('extension'),
            contract = read('contract');
        expect(language.dependencies['langium-sprotty']).toBe('3.5.0');
        expect(language.dependencies.elkjs).toBe('0.8.2');
        expect(diagram.dependencies.sprotty).toBe('1.4.0');
        expect(diagram.dependencies.inversify).toMatch(/^6\.2\.\d+$/);
        expect(extension.dependencies['vscode-languageclient']).toBe('9.0.1');
        expect(extension.dependencies['sprotty-vscode']).toBe('1.0.0');
        expect(contract.devDependencies['json-schema-to-typescript']).toBe('15.0.4');
        for (const pkg of [read('.'), language, diagram, extension, contract]) {
            for (const version of Object.values<string>({ ...pkg.dependencies, ...pkg.devDependencies }))
                expect(version).toMatch(/^\d+\.\d+\.\d+$/);
        }
    });

    test('backend dependencies are pinned', () => {
        const pyproject = readFileSync(join(repo, 'backend', 'pyproject.toml'), 'utf-8');
        const deps = /dependencies = \[([\s\S]*?)\]/
            .exec(pyproject)![1]
            .split('\n')
            .map(l => l.trim())
            .filter(l => l.startsWith('"'));
        expect(deps.length).toBeGreaterThan(5);
        for (const dep of deps) expect(dep).toMatch(/==/);
    });
});

/**
 * The npm packages of the repository and the files each one's package.json answers for. The root holds the
 * configs, scripts/, tests/ (tests/vscode and tests/theia too: their package.json only install code-server and the
 * Theia application, their files resolve the root's node_modules) and bench/.
 */
const WORKSPACES = ['language', 'diagram', 'extension', 'contract'].filter(dir =>
    existsSync(join(repo, dir, 'package.json')),
);
const NPM_PACKAGES = [...WORKSPACES, '.'];
const NOT_SOURCES = new Set([
    'node_modules',
    'out',
    'dist',
    'build',
    'generated',
    'syntaxes',
    '.tmp',
    'backend',
    'runtime-c',
    'samples',
]);

/** What `theia build` generates into tests/theia (git ignores it): Theia's own imports, not ours. */
const THEIA_GENERATED = /^tests\/theia\/(lib|src-gen)$|^tests\/theia\/(gen-)?esbuild[^/]*\.mjs$/;

/** Modules the host provides at run time, declared through their types. */
const PROVIDED: Record<string, string> = { vscode: '@types/vscode' };

/** Imports of the language's benchmarks (bench/): the language declares them, the benchmarks use its copies. */
const NOT_OURS = [
    // resolved from language/ on purpose (createRequire on language/package.json)
    { file: 'bench/ide/bench-diagram.mjs', name: 'vscode-languageserver' },
    // the Langium that the compiled language/out loads (its scope provider is swapped for Langium's own)
    { file: 'bench/language/bench-language.mjs', name: 'langium' },
    // the Langium of the compiled language/out, whose grammar gives the token soups their keywords
    { file: 'bench/language/fuzz-token-soup.mjs', name: 'langium' },
];

/** The root's files that run tools by their command names: the installer, the test runner, the lint test. */
const ROOT_TOOL_RUNNERS = ['scripts/setup.mjs', 'tests/run-all.mjs', 'tests/lint.test.ts'];

function sourceFiles(dir: string, top = dir): string[] {
    const files: string[] = [];
    for (const entry of readdirSync(dir)) {
        const path = join(dir, entry);
        const isDir = statSync(path).isDirectory();
        if (isDir && (NOT_SOURCES.has(entry) || entry.startsWith('.'))) continue;
        if (THEIA_GENERATED.test(relative(repo, path))) continue;
        if (isDir && dir === top && top === repo && WORKSPACES.includes(entry)) continue; // their own package.json
        if (isDir) files.push(...sourceFiles(path, top));
        else if (/\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(entry)) files.push(path);
    }
    return files;
}

/** Package name of a bare import specifier; undefined for relative paths and Node's own modules. */
function packageOf(specifier: string): string | undefined {
    if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return undefined;
    const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
    return builtinModules.includes(name) ? undefined : name;
}

/** The packages a folder's sources import (static, dynamic, require, type-only), with the files that do. */
function importsOf(dir: string): { packages: Map<string, string[]>; usesNodeBuiltins: boolean } {
    const packages = new Map<string, string[]>();
    let usesNodeBuiltins = false;
    for (const file of sourceFiles(join(repo, dir))) {
        const where = relative(repo, file);
        for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf-8'), true, true).importedFiles) {
            const name = packageOf(fileName);
            if (!name) {
                usesNodeBuiltins ||= fileName.startsWith('node:') || builtinModules.includes(fileName.split('/')[0]);
                continue;
            }
            if (NOT_OURS.some(n => n.file === where && n.name === name)) continue;
            packages.set(name, [...(packages.get(name) ?? []), where]);
        }
    }
    return { packages, usesNodeBuiltins };
}

/** The command names a dependency installs (package.json `bin`). */
function binsOf(name: string): string[] {
    const manifest = JSON.parse(readFileSync(join(repo, 'node_modules', name, 'package.json'), 'utf-8')) as {
        bin?: string | Record<string, string>;
    };
    if (!manifest.bin) return [];
    return typeof manifest.bin === 'string' ? [name.replace(/^@[^/]+\//, '')] : Object.keys(manifest.bin);
}

describe('declared dependencies are the imported ones', () => {
    const manifest = (dir: string) =>
        JSON.parse(readFileSync(join(repo, dir, 'package.json'), 'utf-8')) as {
            scripts?: Record<string, string>;
            dependencies?: Record<string, string>;
            devDependencies?: Record<string, string>;
        };

    test.each(NPM_PACKAGES)('%s: every imported package is declared in its package.json', dir => {
        const pkg = manifest(dir);
        const declared = new Set(Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }));
        const undeclared = [...importsOf(dir).packages]
            .filter(([name]) => !declared.has(PROVIDED[name] ?? name))
            .map(([name, files]) => `${name} (imported by ${[...new Set(files)].join(', ')})`);
        expect(undeclared, `imported but not declared in ${join(dir, 'package.json')}`).toEqual([]);
    });

    test.each(NPM_PACKAGES)('%s: every declared dependency is imported or run as a tool', dir => {
        const pkg = manifest(dir);
        const { packages, usesNodeBuiltins } = importsOf(dir);
        // A tool counts where its package runs it: its package.json scripts (and, for the root, the runner files).
        const runners = dir === '.' ? ROOT_TOOL_RUNNERS : [];
        const toolText = [
            JSON.stringify(pkg.scripts ?? {}),
            ...runners.map(file => readFileSync(join(repo, file), 'utf-8')),
        ].join('\n');
        const runs = (command: string) =>
            new RegExp(`(^|[^\\w.-])${command.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\w.-])`, 'm').test(toolText);
        const unused = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).filter(name => {
            if (packages.has(name)) return false;
            if (name === '@types/node') return !usesNodeBuiltins;
            if (name.startsWith('@types/')) {
                const typed = name.slice('@types/'.length);
                return (
                    !packages.has(typed) &&
                    !Object.entries(PROVIDED).some(([module, types]) => types === name && packages.has(module))
                );
            }
            return !binsOf(name).some(runs);
        });
        expect(unused, `declared in ${join(dir, 'package.json')} but neither imported nor run`).toEqual([]);
    });
});
