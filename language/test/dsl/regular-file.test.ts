/**
 * The one reader of model and measurement files: regular files only (a FIFO is refused without waiting for a
 * writer), read to their end whatever fstat says (procfs says 0), refused past the limit, UTF-8 or refused with a line.
 */
import { describe, expect, test } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileRefusal, readRegularFile } from '../../src/dsl/regular-file.js';

const scratch = mkdtempSync(join(tmpdir(), 'chainlab-reader-'));
const tooLarge = (bytes: number) => `${bytes} bytes`;
const read = (path: string, limit = 1024 * 1024) => readRegularFile(path, limit, tooLarge);

describe('readRegularFile', () => {
    test('a procfs file, whose size fstat gives as 0, is read to its end', () => {
        const text = read('/proc/self/status');
        expect(text.length).toBeGreaterThan(100);
        expect(text).toMatch(/^Name:/);
    });

    test('a file past the limit is refused with its size', () => {
        const file = join(scratch, 'large.txt');
        writeFileSync(file, 'x'.repeat(5000));
        expect(read(file, 5000)).toHaveLength(5000);
        expect(() => read(file, 4999)).toThrow(new FileRefusal('5000 bytes'));
    });

    test('a FIFO, a directory and a device are refused at once', () => {
        const fifo = join(scratch, 'fifo');
        execFileSync('mkfifo', [fifo]);
        expect(() => read(fifo)).toThrow('it is a pipe (FIFO), not a regular file');
        expect(() => read(scratch)).toThrow(/it is a directory|illegal operation on a directory/);
        expect(() => read('/dev/zero')).toThrow('it is a device, not a regular file');
    });

    test('bytes that are not UTF-8 are refused with their line; U+FFFD written as UTF-8 is text', () => {
        const file = join(scratch, 'latin1.txt');
        writeFileSync(
            file,
            Buffer.concat([Buffer.from('one\ntwo \ufffd\nthree '), Buffer.from([0xe9]), Buffer.from('\n')]),
        );
        expect(() => read(file)).toThrow('it is not UTF-8 text: byte 0xe9 at line 3');
        writeFileSync(file, 'fine \ufffd\n');
        expect(read(file)).toBe(readFileSync(file, 'utf-8'));
    });
});
