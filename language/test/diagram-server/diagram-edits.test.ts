/** Editing from the diagram as text edits: the edited text parses, validates and has what was asked for. */
import { TextDocument } from 'vscode-languageserver-textdocument';
import { describe, expect, test } from 'vitest';
import { diagramEdit, diagramEdits, type DiagramEdit } from '../../src/diagram-server/diagram-edits.js';
import { chainConnections, chainInstances } from '../../src/dsl/model-util.js';
import { isChain } from '../../src/generated/ast.js';
import { validate } from '../test-utils.js';

const MODEL = `platform P { cores 2 }
image F 8 x 8 of u8
box S { out o: F source period 10 ms }
box G { in i: F out o: F kernel gain(2) split rows depends pointwise cost 1 ms }
box K { in i: F kernel sink }
chain C on P {
    s: S
    g: G
    k: K
    s.o -> g.i   g.o -> k.i
}
`;

async function apply(text: string, edit: DiagramEdit): Promise<string> {
    const document = await validate(text);
    const change = diagramEdit(document, edit);
    const edits = Object.values(change.changes!)[0];
    return TextDocument.applyEdits(TextDocument.create('file:///m.chain', 'chain', 1, text), edits);
}

async function chainOf(text: string) {
    const document = await validate(text);
    expect((document.diagnostics ?? []).filter(d => d.severity === 1).map(d => d.message)).toEqual([]);
    return document.parseResult.value.elements.find(isChain)!;
}

describe('diagram edits', () => {
    test('add an instance and connect it', async () => {
        let text = await apply(MODEL, { op: 'addInstance', chain: 'C', name: 'g2', box: 'G' });
        text = await apply(text, { op: 'deleteConnection', chain: 'C', from: 'g.o', to: 'k.i' });
        text = await apply(text, { op: 'connect', chain: 'C', from: 'g.o', to: 'g2.i' });
        text = await apply(text, { op: 'connect', chain: 'C', from: 'g2.o', to: 'k.i' });
        const chain = await chainOf(text);
        expect(chainInstances(chain).map(i => i.name)).toEqual(['s', 'g', 'k', 'g2']);
        expect(
            chainConnections(chain).map(
                c =>
                    `${c.from.instance.$refText}.${c.from.port.$refText}->${c.to.instance.$refText}.${c.to.port.$refText}`,
            ),
        ).toEqual(['s.o->g.i', 'g.o->g2.i', 'g2.o->k.i']);
    });

    test('delete an instance with its connections', async () => {
        let text = await apply(MODEL, { op: 'deleteInstance', chain: 'C', name: 'g' });
        text = await apply(text, { op: 'connect', chain: 'C', from: 's.o', to: 'k.i' });
        const chain = await chainOf(text);
        expect(chainInstances(chain).map(i => i.name)).toEqual(['s', 'k']);
        expect(chainConnections(chain)).toHaveLength(1);
    });

    test('a selection deleted at once is one edit, and a connection between two deleted instances goes once', async () => {
        const document = await validate(MODEL);
        const change = diagramEdits(document, [
            { op: 'deleteInstance', chain: 'C', name: 's' },
            { op: 'deleteInstance', chain: 'C', name: 'g' },
            { op: 'deleteConnection', chain: 'C', from: 'g.o', to: 'k.i' },
        ]);
        const edits = Object.values(change.changes!)[0];
        expect(edits).toHaveLength(4); // two instance lines, two connections (s.o -> g.i named twice, g.o -> k.i twice)
        const text = TextDocument.applyEdits(TextDocument.create('file:///m.chain', 'chain', 1, MODEL), edits);
        const chain = await chainOf(text.replace('k: K', 'k: K\n    s: S\n    s.o -> k.i'));
        expect(chainInstances(chain).map(i => i.name)).toEqual(['k', 's']);
        expect(() =>
            diagramEdits(document, [
                { op: 'addInstance', chain: 'C', name: 'g2', box: 'G' },
                { op: 'addInstance', chain: 'C', name: 'g3', box: 'G' },
            ]),
        ).toThrow(/one at a time/);
        expect(() => diagramEdits(document, [])).toThrow(/no edit/);
    });

    test('a new instance goes after the last instance, a connection after the last connection', async () => {
        const model = MODEL.replace(
            '    s.o -> g.i   g.o -> k.i\n',
            '    s.o -> g.i\n    g.o -> k.i // out\n    schedule reduced threads 2\n    memory reuse\n',
        );
        let text = await apply(model, { op: 'addInstance', chain: 'C', name: 'g2', box: 'G' });
        expect(text).toContain('    k: K\n    g2: G\n    s.o -> g.i');
        text = await apply(text, { op: 'connect', chain: 'C', from: 'g.o', to: 'g2.i' });
        expect(text).toContain('    g.o -> k.i // out\n    g.o -> g2.i\n    schedule reduced');
        expect(text.trimEnd().endsWith('memory reuse\n}')).toBe(true);
        // a chain whose last member shares the closing brace's line keeps the brace after the new member
        const oneLine = await apply('box B { kernel sink }\nchain D { b: B }\n', {
            op: 'addInstance',
            chain: 'D',
            name: 'b2',
            box: 'B',
        });
        expect(oneLine).toContain('chain D { b: B\n    b2: B }');
    });

    test('bad requests are refused with a reason', async () => {
        const document = await validate(MODEL);
        expect(() => diagramEdit(document, { op: 'addInstance', chain: 'C', name: 'g', box: 'G' })).toThrow(
            /already has an instance g/,
        );
        expect(() => diagramEdit(document, { op: 'deleteInstance', chain: 'C', name: 'nope' })).toThrow(
            /no instance nope/,
        );
        expect(() => diagramEdit(document, { op: 'connect', chain: 'Nope', from: 's.o', to: 'k.i' })).toThrow(
            /no chain named Nope/,
        );
        expect(() => diagramEdit(document, { op: 'connect', chain: 'C', from: 's.o; rm', to: 'k.i' })).toThrow(
            /not instance.port/,
        );
    });
});
