/**
 * The manifest and the packaged .vsix: what VS Code reads from them (built by tests/setup.mjs).
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isLicenseOk, validateManifest } from 'ovsx';
import { describe, expect, test } from 'vitest';

const extension = join(dirname(fileURLToPath(import.meta.url)), '..');
const repo = join(extension, '..');
const manifest = JSON.parse(readFileSync(join(extension, 'package.json'), 'utf-8'));
const vsix = join(extension, 'chainlab.vsix');
/** The files in the packaged extension (paths under extension/). */
const packaged = () => execFileSync('unzip', ['-Z1', vsix], { encoding: 'utf-8' }).split('\n');
/** One file of the .vsix, as it is packaged. */
const fromVsix = (path: string) => execFileSync('unzip', ['-p', vsix, path], { maxBuffer: 64 << 20 });
/** The manifests as packaged: extension/package.json (as vsce rewrote it) and the marketplaces' vsixmanifest. */
const packagedManifest = () => JSON.parse(fromVsix('extension/package.json').toString('utf-8'));
const vsixManifest = () => fromVsix('extension.vsixmanifest').toString('utf-8');
/** The path that a vsixmanifest `<Asset>` of this type names. */
const asset = (type: string) =>
    new RegExp(`<Asset Type="${type.replace(/\./g, '\\.')}" Path="([^"]+)"`).exec(vsixManifest())?.[1];

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

describe('the packaged extension (chainlab.vsix) is publishable', () => {
    test('a licence file is packaged, named by the vsixmanifest, and it is the repository LICENSE', () => {
        const path = /<License>([^<]+)<\/License>/.exec(vsixManifest())?.[1];
        expect(path).toBe(asset('Microsoft.VisualStudio.Services.Content.License'));
        expect(packaged()).toContain(path);
        expect(fromVsix(path!).toString('utf-8')).toBe(readFileSync(join(repo, 'LICENSE'), 'utf-8'));
    });

    test('the licence is MIT (the manifest and the licence text say so)', () => {
        expect(packagedManifest().license).toBe('MIT');
        expect(readFileSync(join(repo, 'LICENSE'), 'utf-8')).toMatch(/^MIT License\n/);
    });

    test('the package script keeps the licence check of vsce (no --skip-license)', () => {
        expect(manifest.scripts.package).toContain('vsce package');
        expect(manifest.scripts.package).not.toContain('--skip-license');
    });

    test('no placeholder address (example.invalid) in the packaged manifests', () => {
        expect(fromVsix('extension/package.json').toString('utf-8')).not.toContain('example.invalid');
        expect(vsixManifest()).not.toContain('example.invalid');
    });

    test('engines.vscode admits the VS Code of the end-to-end tests (code-server)', () => {
        const range = packagedManifest().engines.vscode as string;
        expect(vsixManifest()).toContain(`<Property Id="Microsoft.VisualStudio.Code.Engine" Value="${range}" />`);
        // the VS Code inside code-server (scripts/setup.mjs installs it into tests/vscode)
        const product = join(repo, 'tests/vscode/node_modules/code-server/lib/vscode/product.json');
        expect(existsSync(product), `${product}: run node scripts/setup.mjs`).toBe(true);
        const version = JSON.parse(readFileSync(product, 'utf-8')).version as string;
        expect(version).toMatch(/^\d+\.\d+\.\d+$/);
        // a caret range ^MAJOR.MINOR.PATCH (major >= 1): the same major, not older
        const caret = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(range);
        expect(caret, `engines.vscode ${range} is not ^MAJOR.MINOR.PATCH`).not.toBeNull();
        const [major, ...rest] = caret!.slice(1).map(Number);
        const [vMajor, ...vRest] = version.split('.').map(Number);
        expect(major).toBeGreaterThanOrEqual(1);
        expect(vMajor, `VS Code ${version} against ${range}`).toBe(major);
        const notOlder = vRest[0] > rest[0] || (vRest[0] === rest[0] && vRest[1] >= rest[1]);
        expect(notOlder, `VS Code ${version} against ${range}`).toBe(true);
    });

    test('the icon is a 128×128 PNG, named by the vsixmanifest', () => {
        const path = `extension/${packagedManifest().icon as string}`;
        expect(vsixManifest()).toContain(`<Icon>${path}</Icon>`);
        expect(asset('Microsoft.VisualStudio.Services.Icons.Default')).toBe(path);
        const png = fromVsix(path);
        // the signature, then the IHDR chunk first: its length (13), type, width and height (big-endian)
        expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
        expect(png.readUInt32BE(8)).toBe(13);
        expect(png.toString('ascii', 12, 16)).toBe('IHDR');
        expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([128, 128]);
    });

    test('keywords, and the marketplace tags carry them', () => {
        const keywords = packagedManifest().keywords as string[];
        expect(keywords.length).toBeGreaterThan(0);
        const tags = /<Tags>([^<]*)<\/Tags>/.exec(vsixManifest())?.[1].split(',') ?? [];
        for (const keyword of keywords) expect(tags).toContain(keyword);
    });

    test.each([
        ['README.md', 'Microsoft.VisualStudio.Services.Content.Details'],
        ['CHANGELOG.md', 'Microsoft.VisualStudio.Services.Content.Changelog'],
    ])('%s is packaged (vsce names it in lower case) as the asset %s', (file, type) => {
        const path = asset(type);
        expect(path).toBe(`extension/${file.toLowerCase()}`);
        expect(packaged()).toContain(path);
        expect(fromVsix(path!).toString('utf-8').trim()).not.toBe('');
    });

    test('the backend wheel and the example workspace are packaged', () => {
        const files = packaged();
        expect(files.filter(f => /^extension\/dist\/backend\/chainlab_backend-[^/]+\.whl$/.test(f))).toHaveLength(1);
        for (const example of ['xray.chain', 'fig3-5.chain', 'thesis-fig5-2.chain', 'README.md'])
            expect(files).toContain(`extension/dist/examples/${example}`);
    });

    test('no source maps are packaged', () => {
        expect(packaged().filter(f => f.endsWith('.map'))).toEqual([]);
        expect(packaged()).toContain('extension/dist/extension.cjs');
    });

    test('every command: link of the walkthrough names a contributed command (and its examples and follow-ups)', () => {
        const contributes = packagedManifest().contributes;
        const commands = new Set(contributes.commands.map((c: { command: string }) => c.command));
        const files = packaged();
        const links: string[] = [];
        for (const walkthrough of contributes.walkthroughs)
            for (const step of walkthrough.steps) {
                for (const [, command, query] of (step.description as string).matchAll(
                    /\]\(command:([^?)\s]+)(?:\?([^)\s]*))?\)/g,
                )) {
                    links.push(command);
                    expect(commands, `${step.id}: command:${command}`).toContain(command);
                    const args: unknown[] = query ? [JSON.parse(decodeURIComponent(query))].flat() : [];
                    for (const arg of args.filter((a): a is string => typeof a === 'string')) {
                        if (arg.startsWith('chainlab.')) expect(commands, `${step.id}: ${arg}`).toContain(arg);
                        if (arg.endsWith('.chain'))
                            expect(files, `${step.id}: ${arg}`).toContain(`extension/dist/examples/${arg}`);
                    }
                }
                if (step.media?.markdown) expect(files).toContain(`extension/${step.media.markdown as string}`);
            }
        expect(links.length).toBeGreaterThan(0);
    });
});

/**
 * What the Open VSX CLI (ovsx) checks offline. For a .vsix it is handed, `ovsx publish` only reads
 * extension/package.json out of the zip (readVSIXPackage: a zip with that entry, JSON) before it uploads; the licence
 * prompt (isLicenseOk) runs only when it packages a folder itself, and only for open-vsx.org. Everything else
 * (namespace, name rules, licence required, duplicates) is the registry's, on the server: not checkable here.
 */
describe('ovsx (Open VSX) takes the package', () => {
    test('its manifest and licence checks pass on the packaged files (by the licence file alone, too)', async () => {
        const packagedJson = packagedManifest();
        expect(() => validateManifest(packagedJson)).not.toThrow();
        // the packaged extension/ folder, unzipped: what ovsx reads when it publishes a folder
        const dir = mkdtempSync(join(tmpdir(), 'chainlab-vsix-'));
        try {
            execFileSync('unzip', ['-q', vsix, 'extension/*', '-d', dir]);
            expect(await isLicenseOk(join(dir, 'extension'))).toBe(true);
            // without the `license` field ovsx looks for a LICENSE file beside package.json: the packaged LICENSE.txt
            const { license: _license, ...unlicensed } = packagedJson;
            expect(await isLicenseOk(join(dir, 'extension'), unlicensed)).toBe(true);
            // (and with neither, ovsx would refuse it: it is that check)
            rmSync(join(dir, 'extension', 'LICENSE.txt'));
            expect(await isLicenseOk(join(dir, 'extension'), unlicensed)).toBe(false);
        } finally {
            rmSync(dir, { recursive: true, force: true });
        }
    });

    /**
     * `ovsx publish chainlab.vsix` against a registry stub on 127.0.0.1 (no network): it answers /api/version with
     * 404 (a registry too old to report its limits) and the upload with the extension, as Open VSX does.
     */
    async function publishTo(file: string) {
        const requests: { method?: string; path: string; auth?: string; body: Buffer }[] = [];
        const expected = packagedManifest();
        const server = createServer((request, response) => {
            const chunks: Buffer[] = [];
            request.on('data', (chunk: Buffer) => chunks.push(chunk));
            request.on('end', () => {
                const path = new URL(request.url ?? '/', 'http://stub').pathname;
                requests.push({
                    method: request.method,
                    path,
                    auth: request.headers.authorization,
                    body: Buffer.concat(chunks),
                });
                const ok = request.method === 'POST' && path === '/api/-/publish';
                response.writeHead(ok ? 201 : 404, { 'Content-Type': 'application/json' });
                response.end(
                    JSON.stringify(
                        ok
                            ? {
                                  namespace: expected.publisher,
                                  name: expected.name,
                                  version: expected.version,
                                  targetPlatform: 'universal',
                              }
                            : { error: `no ${path} here` },
                    ),
                );
            });
        });
        await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
        const { port } = server.address() as AddressInfo;
        const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OVSX_')));
        try {
            const result = await new Promise<{ code: number | null; output: string }>(resolve => {
                execFile(
                    join(repo, 'node_modules/.bin/ovsx'),
                    ['publish', file, '--registryUrl', `http://127.0.0.1:${port}`, '--pat', 'offline-test-token'],
                    { env: { ...env, OVSX_TIMEOUT: '10000' }, timeout: 60_000, encoding: 'utf-8' },
                    (error, stdout, stderr) =>
                        resolve({
                            code: error ? (typeof error.code === 'number' ? error.code : null) : 0,
                            output: stdout + stderr,
                        }),
                );
            });
            return { ...result, requests };
        } finally {
            server.close();
        }
    }

    test('ovsx publish reads the .vsix and uploads it unchanged (to a local stub, never the network)', async () => {
        const { code, output, requests } = await publishTo(vsix);
        const { publisher, name, version } = packagedManifest();
        expect(output).toContain(`Published ${publisher}.${name} v${version}`);
        expect(code, output).toBe(0);
        const uploads = requests.filter(r => r.method === 'POST' && r.path === '/api/-/publish');
        expect(uploads).toHaveLength(1);
        expect(uploads[0].auth).toBe('Bearer offline-test-token');
        expect(uploads[0].body.equals(readFileSync(vsix))).toBe(true);
    });

    test('and refuses a file that is no package before uploading anything', async () => {
        const dir = mkdtempSync(join(tmpdir(), 'chainlab-ovsx-'));
        try {
            const file = join(dir, 'not-a-package.vsix');
            writeFileSync(file, 'not a zip\n');
            const { code, output, requests } = await publishTo(file);
            expect(code, output).toBe(1);
            expect(output).toMatch(/End of Central Directory Record not found/i);
            expect(requests.filter(r => r.method === 'POST')).toEqual([]);
        } finally {
            rmSync(dir, { recursive: true, force: true });
        }
    });
});
