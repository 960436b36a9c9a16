/**
 * The manifest and the packaged .vsix: what VS Code reads from them (built by tests/setup.mjs).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const extension = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(join(extension, 'package.json'), 'utf-8'));
/** The files in the packaged extension (paths under extension/). */
const packaged = () =>
    execFileSync('unzip', ['-Z1', join(extension, 'chainlab.vsix')], { encoding: 'utf-8' }).split('\n');

describe('the .chain file icon', () => {
    const language = manifest.contributes.languages.find((l: { id: string }) => l.id === 'chain');

    test.each(['light', 'dark'])('a %s SVG for file icon themes, shipped in the .vsix', theme => {
        const path = language.icon[theme] as string;
        const svg = readFileSync(join(extension, path), 'utf-8');
        expect(svg).toMatch(/^<svg [^>]*viewBox="0 0 16 16"/);
        expect(packaged()).toContain(`extension/${path.replace(/^\.\//, '')}`);
    });

    test('light and dark differ (each readable on its background)', () => {
        expect(readFileSync(join(extension, language.icon.light), 'utf-8')).not.toBe(
            readFileSync(join(extension, language.icon.dark), 'utf-8'),
        );
    });
});

test('every file the manifest names exists', () => {
    const paths = [
        manifest.main,
        ...manifest.contributes.grammars.map((g: { path: string }) => g.path),
        ...manifest.contributes.languages.flatMap((l: { configuration?: string; icon?: Record<string, string> }) => [
            l.configuration,
            ...Object.values(l.icon ?? {}),
        ]),
    ];
    for (const path of paths.filter(Boolean)) expect(existsSync(join(extension, path)), path).toBe(true);
});

describe('nothing VS Code warns about when the repository is open', () => {
    test('no activation event VS Code already generates from the contributions (engine >= 1.75)', () => {
        // extension-editing's linter: "This activation event can be removed as VS Code generates these automatically …"
        expect(manifest.engines.vscode).toMatch(/^\^1\.(7[5-9]|[89]\d|\d{3})\./);
        const contributes = manifest.contributes;
        const implicit = new Set([
            ...contributes.languages.map((l: { id: string }) => `onLanguage:${l.id}`),
            ...contributes.commands.map((c: { command: string }) => `onCommand:${c.command}`),
            ...(contributes.walkthroughs ?? []).map((w: { id: string }) => `onWalkthrough:${w.id}`),
        ]);
        expect((manifest.activationEvents as string[]).filter(e => implicit.has(e))).toEqual([]);
        expect(manifest.activationEvents).not.toContain('*');
    });
});
