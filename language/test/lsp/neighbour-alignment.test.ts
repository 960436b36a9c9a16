/** A written member line takes the column its neighbours agree on, and only where they are padded for it. */
import { describe, expect, test } from 'vitest';
import { alignLike, alignedColumn, keepAlignment } from '../../src/dsl/lsp/neighbour-alignment.js';

describe('neighbour alignment', () => {
    test('the column of padded neighbours that agree', () => {
        expect(alignedColumn('instance', ['    src:    Source', '    conv:   Conv'])).toBe(12);
        expect(alignedColumn('connection', ['    src.toConv -> conv.i', '    conv.o     -> dup.i'])).toBe(15);
    });

    test('no column where the neighbours disagree or none is padded', () => {
        expect(alignedColumn('instance', ['    src: Source', '    conv: Conv'])).toBeUndefined();
        expect(alignedColumn('instance', ['    src:    Source', '    conv:     Conv'])).toBeUndefined();
        expect(alignedColumn('instance', [])).toBeUndefined();
    });

    test('a line moved to the column, or left with one space where its head is too long', () => {
        const neighbours = ['    src:    Source', '    conv:   Conv'];
        expect(alignLike('instance', '    add: Add', neighbours)).toBe('    add:    Add');
        expect(alignLike('instance', '    accumulate: Add', neighbours)).toBe('    accumulate: Add');
        expect(alignLike('connection', '    a.o -> b.i', ['    src.toConv -> conv.i', '    conv.o     -> dup.i'])).toBe(
            '    a.o        -> b.i',
        );
    });

    test('a rename within an aligned line is rewritten whole with its column kept', () => {
        const lines = ['    src:    S', '    gain1:  G', '    sink:   K'];
        const edits = [{ range: { start: { line: 1, character: 4 }, end: { line: 1, character: 9 } }, newText: 'b' }];
        expect(keepAlignment(edits, l => lines[l])).toEqual([
            { range: { start: { line: 1, character: 0 }, end: { line: 1, character: 13 } }, newText: '    b:      G' },
        ]);
        // an unaligned line keeps the plain edit
        const plain = ['    s: S', '    g: G'];
        const edit = { range: { start: { line: 1, character: 4 }, end: { line: 1, character: 5 } }, newText: 'gg' };
        expect(keepAlignment([edit], l => plain[l])).toEqual([edit]);
    });
});
