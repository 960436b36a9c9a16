/**
 * `chainlab import` and `chainlab export --sdf3` through the real CLI (language/bin/chainlab.js, built by
 * `npx tsc -b`) and the real backend: what is written passes `chainlab check`, nothing is written when anything is
 * refused, and a chain exported as SDF3 comes back as a model that checks.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkImportedText, describeModel, importParams } from '../../language/src/cli/import-command.js';
import { checkExportOptions } from '../../language/src/cli/export-sdf3.js';
import { UsageError } from '../../language/src/cli/usage-error.js';
import { chainlab as run, repo, tempDir as temporaryDir } from './cli-helpers.js';

const fixtures = join(__dirname, 'fixtures', 'import');
const line3 = join(fixtures, 'line3.sdf3.xml');
const fig35 = join(repo, 'samples', 'chains', 'fig3-5.chain');

const chainlab = (args: string[], env: Record<string, string> = {}) => run(args, { env, timeoutMs: 120_000 });
const tempDir = () => temporaryDir('chainlab-import');

async function expectChecksClean(path: string): Promise<void> {
    const check = await chainlab(['check', path]);
    expect(check.stderr).toContain('1 file(s) checked: 0 error(s)');
    expect(check.status).toBe(0);
}

describe('chainlab import (CLI and backend)', () => {
    test('an SDF3 line of three actors becomes a model that checks; notes and one summary on stderr', async () => {
        const out = join(tempDir(), 'line3.chain');
        const result = await chainlab(['import', line3, '-o', out]);
        expect(result.stderr).not.toMatch(/error/);
        expect(result.status).toBe(0);
        expect(result.stdout).toBe('');
        const lines = result.stderr.trimEnd().split('\n');
        expect(lines.filter(l => !l.startsWith('chainlab: note: '))).toEqual([
            `chainlab: wrote ${out} from ${line3} (sdf3): 3 boxes in 1 chain`,
        ]);
        const text = readFileSync(out, 'utf-8');
        for (const actor of ['capture', 'filter', 'show']) expect(text).toMatch(new RegExp(`\\b${actor}\\b`, 'i'));
        await expectChecksClean(out);
    }, 120_000);

    test('without -o the model goes to standard output, the summary to stderr', async () => {
        const dir = tempDir();
        const result = await chainlab(['import', line3]);
        expect(result.status, result.stderr).toBe(0);
        expect(result.stderr).toContain(`chainlab: imported ${line3} (sdf3): 3 boxes in 1 chain`);
        const written = join(dir, 'piped.chain');
        writeFileSync(written, result.stdout);
        await expectChecksClean(written);
        const viaFile = join(dir, 'file.chain');
        const again = await chainlab(['import', line3, '-o', viaFile]);
        expect(again.status, again.stderr).toBe(0);
        expect(result.stdout).toBe(readFileSync(viaFile, 'utf-8'));
    }, 120_000);

    test('an existing file is replaced only with --force', async () => {
        const out = join(tempDir(), 'mine.chain');
        writeFileSync(out, '// my own model\n');
        const refused = await chainlab(['import', line3, '-o', out]);
        expect(refused.status).toBe(1);
        expect(refused.stderr).toBe(`chainlab: error: not writing ${out}: it exists; add --force to replace it\n`);
        expect(readFileSync(out, 'utf-8')).toBe('// my own model\n');
        const forced = await chainlab(['import', line3, '-o', out, '--force']);
        expect(forced.status, forced.stderr).toBe(0);
        expect(readFileSync(out, 'utf-8')).not.toContain('my own model');
        await expectChecksClean(out);
    }, 120_000);

    test('malformed XML: one error line with file:line:col, nothing written', async () => {
        const dir = tempDir();
        const source = join(dir, 'broken.xml');
        writeFileSync(source, readFileSync(join(fixtures, 'malformed.sdf3.xml')));
        const out = join(dir, 'broken.chain');
        const result = await chainlab(['import', source, '-o', out]);
        expect(result.status).not.toBe(0);
        expect(result.stdout).toBe('');
        const lines = result.stderr.trimEnd().split('\n');
        expect(lines, result.stderr).toHaveLength(1);
        expect(lines[0]).toMatch(new RegExp(`^(chainlab: error: )?${source}:7:\\d+: error: .*not well-formed`));
        expect(result.stderr).not.toMatch(/internal error|Traceback/);
        expect(existsSync(out)).toBe(false);
    }, 120_000);

    test("a model the importer got wrong is the importer's internal error: listed, nothing written", async () => {
        // the real backend, its importer replaced by one that writes a box of an unknown image type
        const dir = tempDir();
        const backend = join(dir, 'backend');
        const wrong = "ImportResult('box B {\\n    in i: Missing\\n}\\n', 'sdf3', ['a note'])";
        writeFileSync(
            backend,
            `#!/bin/sh\nexec ${join(repo, 'backend', '.venv', 'bin', 'python')} -c "` +
                'import chainlab.rpc.interchange_methods as m; from chainlab.interchange.result import ImportResult; ' +
                `m.import_model = lambda *a: ${wrong}; from chainlab.rpc.server import main; main()"\n`,
        );
        chmodSync(backend, 0o755);
        const out = join(dir, 'wrong.chain');
        const result = await chainlab(['import', line3, '-o', out], { CHAINLAB_PYTHON: backend });
        expect(result.status).toBe(70);
        const lines = result.stderr.trimEnd().split('\n');
        expect(lines[0]).toBe(
            `chainlab: internal error: the sdf3 importer turned ${line3} into a model with ${lines.length - 1} error(s); nothing was written (please report this with the file)`,
        );
        expect(lines.slice(1).every(l => l.startsWith('  (imported from line3.sdf3.xml):'))).toBe(true);
        expect(lines).toContain(
            "  (imported from line3.sdf3.xml):2:11: error: Unknown image type 'Missing'; there are no image types here. [linking-error]",
        );
        expect(result.stderr).not.toContain('note:');
        expect(existsSync(out)).toBe(false);
    }, 120_000);

    test('a file that is not there is named in one error line', async () => {
        const dir = tempDir();
        const result = await chainlab(['import', join(dir, 'missing.xml'), '-o', join(dir, 'm.chain')]);
        expect(result.status).toBe(1);
        expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
        expect(result.stderr).toMatch(/^chainlab: error: .*missing\.xml/);
        expect(existsSync(join(dir, 'm.chain'))).toBe(false);
    }, 120_000);

    test('usage mistakes are refused before the backend starts', async () => {
        const notChain = await chainlab(['import', line3, '-o', join(tempDir(), 'out.xml')]);
        expect(notChain.status).toBe(1);
        expect(notChain.stderr).toMatch(/^chainlab: error: -o takes the \.chain file to write/);
        const format = await chainlab(['import', line3, '--format', 'xmi']);
        expect(format.status).toBe(2);
        expect(format.stderr).toContain('--format is one of sdf3, preesm, amalthea');
    });
});

describe('chainlab export --sdf3 (CLI and backend)', () => {
    test('fig3-5 as SDF3 XML, imported back: a model that checks with the same boxes', async () => {
        const dir = tempDir();
        const xml = join(dir, 'fig3-5.sdf3.xml');
        const exported = await chainlab(['export', fig35, '--sdf3', '-o', xml]);
        expect(exported.stderr).not.toMatch(/error/);
        expect(exported.status).toBe(0);
        const text = readFileSync(xml, 'utf-8');
        expect(text).toMatch(/<sdf3[^>]*type="sdf"/);
        const back = join(dir, 'fig3-5.chain');
        const imported = await chainlab(['import', xml, '-o', back]);
        expect(imported.stderr).not.toMatch(/error/);
        expect(imported.status).toBe(0);
        expect(imported.stderr).toContain('8 boxes in 1 chain');
        await expectChecksClean(back);
    }, 180_000);

    test('without -o the XML goes to standard output', async () => {
        const result = await chainlab(['export', fig35, '--sdf3', '--chain', 'Fig35']);
        expect(result.status).toBe(0);
        expect(result.stdout).toMatch(/^<\?xml[^\n]*\n[\s\S]*<sdf3/);
    }, 120_000);

    test('--json with --sdf3, and --chain without --sdf3, are refused', async () => {
        const both = await chainlab(['export', fig35, '--json', '--sdf3']);
        expect(both.status).toBe(1);
        expect(both.stderr).toBe('chainlab: error: --json and --sdf3 are two formats: choose one\n');
        const chain = await chainlab(['export', fig35, '--chain', 'Fig35']);
        expect(chain.status).toBe(1);
        expect(chain.stderr).toMatch(/^chainlab: error: --chain is for --sdf3/);
    });
});

describe('the parts of import that need no backend', () => {
    test('the backend is given absolute paths; --scenario only with a PREESM model', () => {
        expect(importParams('a/b.pi', { scenario: 's.scenario' })).toEqual({
            path: join(process.cwd(), 'a', 'b.pi'),
            scenario: join(process.cwd(), 's.scenario'),
        });
        expect(importParams('x.xml', { format: 'sdf3' })).toEqual({
            path: join(process.cwd(), 'x.xml'),
            format: 'sdf3',
        });
        expect(() => importParams('x.xml', { scenario: 's.scenario' })).toThrow(UsageError);
        expect(() => importParams('x.pi', { format: 'sdf3', scenario: 's.scenario' })).toThrow(UsageError);
        expect(importParams('x.xml', { format: 'preesm', scenario: 's' }).format).toBe('preesm');
    });

    test('the imported text is checked as the file it becomes, and the summary counts boxes and components', async () => {
        const text = [
            'platform P { cores 2 }',
            'image F 64 x 64 of u8',
            'box A { out o: F source period 10 ms cost 1 ms }',
            'box B { in i: F kernel sink cost 1 ms }',
            'chain C on P { a: A b: B a.o -> b.i }',
            'ptts S { component X period 10 ms etp point 1 ms component Y period 20 ms etp point 2 ms }',
        ].join('\n');
        const { model, diagnostics } = await checkImportedText(text, join(tempDir(), 'm.chain'));
        expect(diagnostics.filter(d => d.severity === 1)).toEqual([]);
        expect(describeModel(model)).toBe('2 boxes in 1 chain, 2 components in 1 ptts');
        const broken = await checkImportedText('box { }', join(tempDir(), 'b.chain'));
        expect(broken.diagnostics.length).toBeGreaterThan(0);
    });

    test('export options: one format at a time', () => {
        expect(() => checkExportOptions({ sdf3: true, json: true })).toThrow(UsageError);
        expect(() => checkExportOptions({ chain: 'C' })).toThrow(UsageError);
        expect(() => checkExportOptions({ sdf3: true, chain: 'C' })).not.toThrow();
    });
});
