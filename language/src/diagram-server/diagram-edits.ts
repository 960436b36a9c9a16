/**
 * Editing from the diagram, always as text edits on the model (the text stays the source of truth and the
 * editor's undo works): add a box instance to a chain, connect two ports, delete an instance (with its
 * connections) or a connection. Pure functions of the parsed document; the server sends the WorkspaceEdit.
 */
import type { LangiumDocument } from 'langium';
import type { TextEdit, WorkspaceEdit } from 'vscode-languageserver';
import type { DiagramEdit } from '@chainlab/contract';
import { isChain, type Chain, type Model } from '../generated/ast.js';
import { chainConnections, chainInstances } from '../dsl/model-util.js';

export type { DiagramEdit } from '@chainlab/contract';

export class DiagramEditError extends Error {}

export function diagramEdit(document: LangiumDocument<Model>, edit: DiagramEdit): WorkspaceEdit {
    return diagramEdits(document, [edit]);
}

/**
 * Several edits as one WorkspaceEdit (one undo step), e.g. deleting a selection of instances and
 * connections. A line removed by two of them (a connection between two deleted instances) is removed once.
 */
export function diagramEdits(document: LangiumDocument<Model>, wanted: readonly DiagramEdit[]): WorkspaceEdit {
    if (wanted.length === 0) throw new DiagramEditError('no edit');
    const inserts = wanted.filter(e => e.op === 'addInstance' || e.op === 'connect').length;
    if (inserts > 0 && wanted.length > 1) throw new DiagramEditError('additions come one at a time');
    const unique = new Map<string, TextEdit>();
    for (const edit of wanted) {
        const chain = document.parseResult.value.elements.filter(isChain).find(c => c.name === edit.chain);
        if (!chain?.$cstNode) throw new DiagramEditError(`no chain named ${edit.chain}`);
        for (const e of edits(document, chain, edit)) unique.set(JSON.stringify(e.range), e);
    }
    return { changes: { [document.uri.toString()]: [...unique.values()] } };
}

function edits(document: LangiumDocument, chain: Chain, edit: DiagramEdit): TextEdit[] {
    const text = document.textDocument;
    const end = chain.$cstNode!.range.end; // the closing brace
    const insert = (line: string): TextEdit => ({
        range: { start: { line: end.line, character: end.character - 1 }, end },
        newText: `    ${line}\n}`,
    });
    const instances = chainInstances(chain);
    const connectionText = (c: ReturnType<typeof chainConnections>[number]) =>
        `${c.from.instance.$refText}.${c.from.port.$refText} -> ${c.to.instance.$refText}.${c.to.port.$refText}`;
    const removeLine = (node: { $cstNode?: { range: TextEdit['range'] } }): TextEdit => {
        const { start, end: stop } = node.$cstNode!.range;
        const lineText = text.getText({
            start: { line: start.line, character: 0 },
            end: { line: start.line + 1, character: 0 },
        });
        const alone = lineText.trim() === text.getText({ start, end: stop }).trim();
        // a member on its own line goes with its line; otherwise only its text
        return alone
            ? {
                  range: { start: { line: start.line, character: 0 }, end: { line: start.line + 1, character: 0 } },
                  newText: '',
              }
            : { range: { start, end: stop }, newText: '' };
    };
    switch (edit.op) {
        case 'addInstance': {
            if (!/^[A-Za-z_]\w*$/.test(edit.name)) throw new DiagramEditError(`'${edit.name}' is not a name`);
            if (instances.some(i => i.name === edit.name))
                throw new DiagramEditError(`chain ${chain.name} already has an instance ${edit.name}`);
            return [insert(`${edit.name}: ${edit.box}`)];
        }
        case 'connect': {
            for (const end of [edit.from, edit.to]) {
                if (!/^\w+\.\w+$/.test(end)) throw new DiagramEditError(`'${end}' is not instance.port`);
                if (!instances.some(i => i.name === end.split('.')[0]))
                    throw new DiagramEditError(`chain ${chain.name} has no instance ${end.split('.')[0]}`);
            }
            return [insert(`${edit.from} -> ${edit.to}`)];
        }
        case 'deleteInstance': {
            const instance = instances.find(i => i.name === edit.name);
            if (!instance) throw new DiagramEditError(`chain ${chain.name} has no instance ${edit.name}`);
            const touching = chainConnections(chain).filter(
                c => c.from.instance.$refText === edit.name || c.to.instance.$refText === edit.name,
            );
            return [removeLine(instance), ...touching.map(removeLine)];
        }
        case 'deleteConnection': {
            const connection = chainConnections(chain).find(c => connectionText(c) === `${edit.from} -> ${edit.to}`);
            if (!connection)
                throw new DiagramEditError(`chain ${chain.name} has no connection ${edit.from} -> ${edit.to}`);
            return [removeLine(connection)];
        }
    }
}
