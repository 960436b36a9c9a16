/** Editing from the diagram as text edits: the edited text parses, validates and has what was asked for. */
import { TextDocument } from 'vscode-languageserver-textdocument';
import { describe, expect, test } from 'vitest';
import { diagramEdit, diagramEdits, renamePosition, type DiagramEdit } from '../../src/diagram-server/diagram-edits.js';
import { chainConnections, chainInstances } from '../../src/dsl/model-util.js';
import { isChain } from '../../src/generated/ast.js';
import { services, validate } from '../test-utils.js';

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

describe('inserted lines follow the file', () => {
    const ALIGNED = MODEL.replace(
        `    s: S
    g: G
    k: K
    s.o -> g.i   g.o -> k.i`,
        `    s:     S
    g:     G
    k:     K

    s.o    -> g.i
    g.o    -> k.i`,
    );

    test('an instance and a connection go into the columns of their neighbours', async () => {
        let text = await apply(ALIGNED, { op: 'addInstance', chain: 'C', name: 'g2', box: 'G' });
        expect(text).toContain('    k:     K\n    g2:    G\n');
        text = await apply(text, { op: 'connect', chain: 'C', from: 'g.o', to: 'g2.i' });
        expect(text).toContain('    g.o    -> k.i\n    g.o    -> g2.i\n');
        await chainOf(text);
    });

    test('single-spaced members stay single-spaced', async () => {
        const text = await apply(MODEL, { op: 'addInstance', chain: 'C', name: 'g2', box: 'G' });
        expect(text).toContain('    k: K\n    g2: G\n');
    });
});

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

    test('a new box type is declared after the last box, as the formatter writes it, and the palette can use it', async () => {
        let text = await apply(MODEL, {
            op: 'addBox',
            chain: 'C',
            name: 'Blur',
            inputs: [{ name: 'i', image: 'F' }],
            outputs: [{ name: 'o', image: 'F' }],
            kernel: ' gain( 2 ) ',
        });
        expect(text).toContain(
            'box K { in i: F kernel sink }\n\nbox Blur {\n    in i: F\n    out o: F\n    kernel gain(2)\n}\nchain C',
        );
        const document = await validate(text);
        const formatted = await services.Chain.lsp.Formatter!.formatDocument(document, {
            textDocument: { uri: document.uri.toString() },
            options: { insertSpaces: true, tabSize: 4 },
        });
        const blurLines = [text.indexOf('box Blur'), text.indexOf('}\nchain C')].map(
            o => document.textDocument.positionAt(o).line,
        );
        // the formatter leaves the new declaration as it is (it only touches other lines of this compact model)
        expect(formatted.filter(e => e.range.start.line > blurLines[0] && e.range.end.line <= blurLines[1])).toEqual(
            [],
        );
        text = await apply(text, { op: 'addInstance', chain: 'C', name: 'blur1', box: 'Blur' });
        const chain = await chainOf(text.replace('g.o -> k.i', 'g.o -> blur1.i   blur1.o -> k.i'));
        expect(chainInstances(chain).map(i => i.name)).toEqual(['s', 'g', 'k', 'blur1']);
        const document2 = await validate(MODEL);
        const refuse = (edit: Partial<DiagramEdit>) => () =>
            diagramEdit(document2, {
                op: 'addBox',
                chain: 'C',
                name: 'Blur',
                inputs: [],
                outputs: [],
                kernel: 'copy',
                ...edit,
            } as DiagramEdit);
        expect(refuse({ name: 'G' })).toThrow(/already declared/);
        expect(refuse({ kernel: 'gain(x)' })).toThrow(/not a kernel/);
        expect(refuse({ inputs: [{ name: 'i', image: 'F' }], outputs: [{ name: 'i', image: 'F' }] })).toThrow(
            /two ports i/,
        );
        expect(refuse({ name: 'a b' })).toThrow(/not a name/);
    });

    test('a rename is for the rename provider: its position is the instance name, bad names are refused', async () => {
        const document = await validate(MODEL);
        const at = renamePosition(document, { op: 'renameInstance', chain: 'C', name: 'g', newName: 'gain' });
        expect(MODEL.split('\n')[at.line].slice(at.character)).toBe('g: G');
        expect(() => renamePosition(document, { op: 'renameInstance', chain: 'C', name: 'g', newName: 'k' })).toThrow(
            /already has an instance k/,
        );
        expect(() => renamePosition(document, { op: 'renameInstance', chain: 'C', name: 'g', newName: '1x' })).toThrow(
            /not a name/,
        );
        expect(() => diagramEdit(document, { op: 'renameInstance', chain: 'C', name: 'g', newName: 'x' })).toThrow(
            /rename provider/,
        );
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
