import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../src/atomic-write';

describe('writeFileAtomic', () => {
    it('replaces the file whole and leaves no temporary file', () => {
        const folder = mkdtempSync(join(tmpdir(), 'chainlab-atomic-'));
        const path = join(folder, 'plot.svg');
        writeFileSync(path, 'old');
        writeFileAtomic(path, '<svg/>');
        expect(readFileSync(path, 'utf-8')).toBe('<svg/>');
        expect(readdirSync(folder)).toEqual(['plot.svg']);
    });

    it('names the file, not the temporary name, and leaves nothing behind when the rename fails', () => {
        const folder = mkdtempSync(join(tmpdir(), 'chainlab-atomic-'));
        const path = join(folder, 'plot.svg');
        mkdirSync(path); // a folder where the file should go: the write succeeds, the rename cannot
        expect(() => writeFileAtomic(path, '<svg/>')).toThrow(new RegExp(`^cannot write ${path}: .*${path}`));
        expect(readdirSync(folder)).toEqual(['plot.svg']);
    });
});
