/**
 * Issue 17 through the CLI as a process: model files that are no regular readable files (F1, F2, F4), outputs that
 * cannot be written or would replace the model (F6, F7), a model above the size limit (F3), terminal escapes and a
 * flood of diagnostics from a model (F26), measurement files that are no measurements, and a backend interpreter
 * that is missing or never answers. Each is one line naming the path and the reason, a non-zero exit, no stack.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { chainlab, repo, tempDir } from './cli-helpers.js';

const APP = join(repo, 'samples/chains/appendix-a.chain');
const FIG52 = join(repo, 'samples/ptts/thesis-fig5-2.chain');

function expectOneLine(stderr: string, ...parts: string[]): void {
    const lines = stderr.trim().split('\n');
    expect(lines.length, stderr).toBe(1);
    expect(lines[0].length, stderr).toBeLessThan(1000);
    for (const part of parts) expect(lines[0]).toContain(part);
    expect(stderr).not.toMatch(/Traceback|internal error|\n\s+at /);
}

describe('model files that are no regular readable files (F1, F2, F4)', () => {
    const dir = tempDir('chainlab-models');
    mkdirSync(join(dir, 'x.chain'));
    symlinkSync('/dev/zero', join(dir, 'zero.chain'));
    symlinkSync('/proc/self/mem', join(dir, 'mem.chain')); // a regular file whose read fails (EIO), even for root
    spawnSync('mkfifo', [join(dir, 'fifo.chain')]);
    const cases: Array<[string, string]> = [
        ['x.chain', 'it is a directory'],
        ['zero.chain', 'it is a device'],
        ['mem.chain', 'i/o error'],
        ['fifo.chain', 'it is a pipe (FIFO)'],
    ];
    test.each(['check', 'export', 'analyze', 'run'])('%s: one line each, at once', async command => {
        for (const [name, reason] of cases) {
            const path = join(dir, name);
            const result = await chainlab([command, path], { timeoutMs: 60_000 });
            expect(result.status, `${name}: ${result.stderr}`).toBe(1);
            expectOneLine(result.stderr, `cannot read ${path}`, reason);
        }
    });

    test.skipIf(process.getuid?.() === 0)('an unreadable file (F2)', async () => {
        const path = join(dir, 'secret.chain');
        writeFileSync(path, 'ptts P { component A period 10 ms offset 0 ms etp point 1 ms }\n');
        chmodSync(path, 0o000);
        const result = await chainlab(['check', path]);
        expect(result.status).toBe(1);
        expectOneLine(result.stderr, `cannot read ${path}`, 'permission denied');
    });
});

describe('export -o (F6, F7)', () => {
    test('a missing directory, a directory, /dev/full: one line, nothing written', async () => {
        const dir = tempDir('chainlab-export-out');
        mkdirSync(join(dir, 'folder'));
        for (const [output, reason] of [
            [join(dir, 'missing', 'm.json'), `no such directory ${join(dir, 'missing')}`],
            [join(dir, 'folder'), 'it is a directory'],
            ['/dev/full', 'no space left on device'],
        ]) {
            const result = await chainlab(['export', APP, '-o', output]);
            expect(result.status, result.stderr).toBe(1);
            expectOneLine(result.stderr, `cannot write ${output}`, reason);
        }
        expect(existsSync(join(dir, 'missing'))).toBe(false);
    });

    test('the model itself, by any name, is refused and kept', async () => {
        const dir = tempDir('chainlab-export-self');
        const model = join(dir, 'm.chain');
        const text = readFileSync(APP, 'utf-8');
        writeFileSync(model, text);
        symlinkSync(model, join(dir, 'link.json'));
        for (const output of [model, join(dir, '.', 'm.chain'), join(dir, 'link.json')]) {
            const result = await chainlab(['export', model, '-o', output]);
            expect(result.status).toBe(1);
            expectOneLine(result.stderr, `not writing ${output}`, `the model ${model} itself`);
            expect(readFileSync(model, 'utf-8')).toBe(text);
        }
        const fine = await chainlab(['export', model, '-o', join(dir, 'm.json')]);
        expect(fine.status, fine.stderr).toBe(0);
        expect(JSON.parse(readFileSync(join(dir, 'm.json'), 'utf-8')).chains).toBeDefined();
    });
});

describe('a model above the size limit (F3)', () => {
    test('is refused before parsing, naming the limit', async () => {
        const dir = tempDir('chainlab-large');
        const model = join(dir, 'large.chain');
        const component = (i: number) => `  component C${i} period 10 ms offset 0 ms etp point 1 ms\n`;
        writeFileSync(model, `ptts P {\n${Array.from({ length: 90_000 }, (_, i) => component(i)).join('')}}\n`);
        const started = Date.now();
        const result = await chainlab(['check', model]);
        expect(result.status).toBe(1);
        expectOneLine(result.stderr, `not reading ${model}`, 'MiB, above', 'limit of 4 MiB');
        expect(Date.now() - started).toBeLessThan(20_000);
    });

    test('a file that is not UTF-8 is refused with its line, not as a larger model', async () => {
        const dir = tempDir('chainlab-latin1');
        const model = join(dir, 'latin1.chain');
        // 4.0 MiB of Latin-1 once decoded into 7.3 MiB of replacement characters
        const latin1 = Buffer.alloc(4 * 1024 * 1024 - 64, 0xb5);
        writeFileSync(model, Buffer.concat([Buffer.from('// fine\n// cost 1 \u00b5s\n'), latin1]));
        const result = await chainlab(['check', model]);
        expect(result.status).toBe(1);
        expectOneLine(result.stderr, `cannot read ${model}`, 'not UTF-8 text: byte 0xb5 at line 3');
        writeFileSync(model, 'platform P { cores 2 } // a \ufffd written as such is UTF-8\n');
        expect((await chainlab(['check', model])).status).toBe(0);
    });
});

describe('terminal escapes and floods from a model (F26)', () => {
    test('control characters are printed escaped', async () => {
        const dir = tempDir('chainlab-escapes');
        const model = join(dir, 'esc.chain');
        writeFileSync(
            model,
            'ptts P {\n  component A period 10 ms offset 0 ms etp histogram "\u001b]0;pwned\u0007\u001b[2J\u202e.csv"\n}\n\u001b[31m\n',
        );
        const result = await chainlab(['check', model]);
        expect(result.status).toBe(1);
        // eslint-disable-next-line no-control-regex
        expect(result.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f\u202e]/);
        expect(result.stderr).toContain('\\x1b]0;pwned\\x07\\x1b[2J\\u202e.csv');
    });

    test('at most 200 diagnostics are printed; the counts cover all', async () => {
        const dir = tempDir('chainlab-flood');
        const model = join(dir, 'flood.chain');
        writeFileSync(
            model,
            'ptts P {\n' + '  component A period 0 ms offset 0 ms etp point 1 ms\n'.repeat(1000) + '}\n',
        );
        const result = await chainlab(['check', model]);
        expect(result.status).toBe(1);
        const lines = result.stderr.trim().split('\n');
        expect(lines.length).toBe(202);
        expect(lines[200]).toMatch(/^\.\.\. \d+ more diagnostic\(s\) not shown$/);
        expect(lines[201]).toMatch(/^1 file\(s\) checked: \d{4} error\(s\)/);
    });
});

describe('measurement files', () => {
    test('a file that is no measurement is not quoted beyond a short prefix of what looks like data', async () => {
        const dir = tempDir('chainlab-histogram');
        writeFileSync(join(dir, 'shadow'), 'root:$6$saltsalt$SECRETHASHSECRETHASH:19000:0:99999:7:::\n');
        writeFileSync(join(dir, 'words.txt'), 'latency_of_the_first_frame_in_microseconds\n');
        const model = join(dir, 'h.chain');
        writeFileSync(
            model,
            'ptts P {\n  component A period 10 ms offset 0 ms etp histogram "shadow"\n  component B period 10 ms offset 0 ms etp histogram "words.txt"\n  component C period 10 ms offset 0 ms etp histogram "shadow" column "x"\n}\n',
        );
        for (const command of ['check', 'export']) {
            const result = await chainlab([command, model]);
            expect(result.status).toBe(1);
            expect(result.stderr).not.toContain('SECRET');
            expect(result.stderr).not.toContain('$6$');
        }
        const check = await chainlab(['check', model]);
        expect(check.stderr).toContain(
            'a cell of 56 characters (not shown: it does not look like data) is not a latency',
        );
        expect(check.stderr).toContain("'latency_of_the_first_fra...' is not a latency");
    });
});

describe('the backend interpreter', () => {
    test('a missing interpreter: cannot start, naming it', async () => {
        const result = await chainlab(['analyze', FIG52], { env: { CHAINLAB_PYTHON: '/nonexistent/python3' } });
        expect(result.status).toBe(1);
        expectOneLine(result.stderr, 'cannot start the backend: /nonexistent/python3: not found');
    });

    test('an interpreter that starts but never answers: a time-out, not a hang', async () => {
        const dir = tempDir('chainlab-mute');
        const mute = join(dir, 'mute-python');
        writeFileSync(mute, '#!/bin/sh\nexec sleep 600\n');
        chmodSync(mute, 0o755);
        const started = Date.now();
        const result = await chainlab(['analyze', FIG52], {
            env: { CHAINLAB_PYTHON: mute, CHAINLAB_BACKEND_HANDSHAKE_S: '2' },
            timeoutMs: 60_000,
        });
        expect(result.status, result.stderr).toBe(1);
        expectOneLine(result.stderr, mute, 'did not answer within 2 s', 'CHAINLAB_PYTHON');
        expect(Date.now() - started).toBeLessThan(30_000);
    });
});
