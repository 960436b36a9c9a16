/**
 * The leaner CST: a leaf's range, computed when asked, is the one the document's own line index gives (LF, CRLF and
 * CR line ends, a comment over several lines), every node of a finished tree knows its container, and a leaf's
 * computed root, text and element are those of the tree that holds it.
 */
import { describe, expect, test } from 'vitest';
import { CstUtils, type CstNode } from 'langium';
import { parse } from '../test-utils.js';

const MODEL = [
    '// a model with every kind of line end',
    'platform Pc { cores 4 }',
    '/* a comment',
    '   over two lines */ image Frame 64 x 64 of u16',
    'box Src { out o: Frame  kernel source  split none  cost 1 ms }',
    'box Dst { in i: Frame  kernel sink  split none  cost 1 ms }',
    'chain C on Pc {',
    '    s: Src  d: Dst',
    '    s.o -> d.i',
    '}',
    '',
];

describe('lean CST', () => {
    for (const [name, end] of [
        ['LF', '\n'],
        ['CRLF', '\r\n'],
        ['CR', '\r'],
    ] as const) {
        test(`every leaf's range is the document's (${name})`, async () => {
            const document = await parse(MODEL.join(end));
            expect(document.parseResult.parserErrors).toEqual([]);
            const leaves = [...CstUtils.streamCst(document.parseResult.value.$cstNode!)].filter(
                node => !('content' in node),
            );
            expect(leaves.length).toBeGreaterThan(40);
            for (const leaf of leaves)
                expect(leaf.range, leaf.text).toEqual({
                    start: document.textDocument.positionAt(leaf.offset),
                    end: document.textDocument.positionAt(leaf.end),
                });
        });
    }

    test('every node but the root has the container that holds it', async () => {
        const document = await parse(MODEL.join('\n'));
        const check = (node: CstNode): void => {
            if (!('content' in node)) return;
            for (const child of node.content as CstNode[]) {
                expect(child.container).toBe(node);
                check(child);
            }
        };
        check(document.parseResult.value.$cstNode!);
    });

    test("a leaf's root, text, element and hidden flag come from the tree that holds it", async () => {
        const text = MODEL.join('\n');
        const document = await parse(text);
        const root = document.parseResult.value.$cstNode!;
        const leaves = [...CstUtils.streamCst(root)].filter(node => !('content' in node));
        for (const leaf of leaves) {
            expect(leaf.root).toBe(root);
            expect(leaf.text).toBe(text.slice(leaf.offset, leaf.end));
            expect(leaf.hidden).toBe(leaf.text.startsWith('/'));
            if (!leaf.hidden) expect(leaf.astNode).toBe(leaf.container!.astNode);
        }
        expect(leaves.filter(leaf => leaf.hidden)).toHaveLength(2);
    });
});
