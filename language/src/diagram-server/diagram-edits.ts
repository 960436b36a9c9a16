/**
 * Editing from the diagram, always as text edits on the model (the text stays the source of truth and the
 * editor's undo works): add a box instance to a chain, connect two ports, delete an instance (with its
 * connections) or a connection, declare a new box type. Pure functions of the parsed document; the server
 * sends the WorkspaceEdit. A rename is the language's rename provider's (see `renamePosition`).
 */
import type { LangiumDocument } from 'langium';
import type { Position, TextEdit, WorkspaceEdit } from 'vscode-languageserver';
import type { DiagramEdit } from '@chainlab/contract';
import { isBox, isChain, type Chain, type Model } from '../generated/ast.js';
import { chainConnections, chainInstances } from '../dsl/model-util.js';
import { alignLike, type MemberKind } from '../dsl/lsp/neighbour-alignment.js';

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
    const inserts = wanted.filter(e => e.op !== 'deleteInstance' && e.op !== 'deleteConnection').length;
    if (inserts > 0 && wanted.length > 1) throw new DiagramEditError('additions and renames come one at a time');
    const unique = new Map<string, TextEdit>();
    for (const edit of wanted) {
        const chain = document.parseResult.value.elements.filter(isChain).find(c => c.name === edit.chain);
        if (!chain?.$cstNode) throw new DiagramEditError(`no chain named ${edit.chain}`);
        for (const e of edits(document, chain, edit)) unique.set(JSON.stringify(e.range), e);
    }
    return { changes: { [document.uri.toString()]: [...unique.values()] } };
}

const NAME = /^[A-Za-z_]\w*$/;

/** Where the instance's name is, for textDocument/rename (which renames it and every reference as one edit). */
export function renamePosition(document: LangiumDocument<Model>, edit: DiagramEdit): Position {
    if (edit.op !== 'renameInstance') throw new DiagramEditError(`${edit.op} is not a rename`);
    const chain = document.parseResult.value.elements.filter(isChain).find(c => c.name === edit.chain);
    if (!chain) throw new DiagramEditError(`no chain named ${edit.chain}`);
    if (!NAME.test(edit.newName)) throw new DiagramEditError(`'${edit.newName}' is not a name`);
    const instances = chainInstances(chain);
    const instance = instances.find(i => i.name === edit.name);
    if (!instance?.$cstNode) throw new DiagramEditError(`chain ${chain.name} has no instance ${edit.name}`);
    if (instances.some(i => i.name === edit.newName))
        throw new DiagramEditError(`chain ${chain.name} already has an instance ${edit.newName}`);
    return instance.$cstNode.range.start; // `name: Box` starts with the name
}

function edits(document: LangiumDocument, chain: Chain, edit: DiagramEdit): TextEdit[] {
    const text = document.textDocument;
    const instances = chainInstances(chain);
    const connections = chainConnections(chain);
    /**
     * A new member goes on its own line after the last of its kind (`after`), indented like it, so instances
     * stay with the instances and connections with the connections, not after `memory`/`schedule` lines.
     */
    const lineAt = (line: number) =>
        text.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } }).replace(/\r?\n$/, '');
    const insert = (line: string, after: Array<{ $cstNode?: { range: TextEdit['range'] } }>, kind: MemberKind) => {
        const last = after.filter(a => a.$cstNode).at(-1)?.$cstNode?.range.end;
        if (!last) {
            const open = chain.$cstNode!.range.end; // the closing brace: an empty chain gets its first member
            return {
                range: { start: { line: open.line, character: open.character - 1 }, end: open },
                newText: `    ${line}\n}`,
            };
        }
        const lineText = lineAt(last.line);
        const indent = /^[ \t]*/.exec(lineText)![0] || '    '; // a member on the chain's line: the formatter's indent
        // after a comment that ends the line, unless the chain's brace closes on that line too
        const closesHere = chain.$cstNode!.range.end.line === last.line;
        const at = closesHere ? last : { line: last.line, character: lineText.length };
        const neighbours = after.flatMap(a => (a.$cstNode ? [lineAt(a.$cstNode.range.start.line)] : []));
        return { range: { start: at, end: at }, newText: `\n${alignLike(kind, indent + line, neighbours)}` };
    };
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
            if (!NAME.test(edit.name)) throw new DiagramEditError(`'${edit.name}' is not a name`);
            if (instances.some(i => i.name === edit.name))
                throw new DiagramEditError(`chain ${chain.name} already has an instance ${edit.name}`);
            return [insert(`${edit.name}: ${edit.box}`, instances, 'instance')];
        }
        case 'connect': {
            for (const end of [edit.from, edit.to]) {
                if (!/^\w+\.\w+$/.test(end)) throw new DiagramEditError(`'${end}' is not instance.port`);
                if (!instances.some(i => i.name === end.split('.')[0]))
                    throw new DiagramEditError(`chain ${chain.name} has no instance ${end.split('.')[0]}`);
            }
            const after = connections.length ? connections : instances;
            return [insert(`${edit.from} -> ${edit.to}`, after, 'connection')];
        }
        case 'deleteInstance': {
            const instance = instances.find(i => i.name === edit.name);
            if (!instance) throw new DiagramEditError(`chain ${chain.name} has no instance ${edit.name}`);
            const touching = connections.filter(
                c => c.from.instance.$refText === edit.name || c.to.instance.$refText === edit.name,
            );
            return [removeLine(instance), ...touching.map(removeLine)];
        }
        case 'deleteConnection': {
            const connection = connections.find(c => connectionText(c) === `${edit.from} -> ${edit.to}`);
            if (!connection)
                throw new DiagramEditError(`chain ${chain.name} has no connection ${edit.from} -> ${edit.to}`);
            return [removeLine(connection)];
        }
        case 'renameInstance':
            throw new DiagramEditError('a rename goes through the rename provider');
        case 'addBox':
            return [addBox(document as LangiumDocument<Model>, chain, edit)];
    }
}

type AddBox = Extract<DiagramEdit, { op: 'addBox' }>;

/**
 * A `box` declaration as the formatter writes it (one member per line, four-space indent, a blank line between
 * top-level elements), after the file's last box, else before the chain.
 */
function addBox(document: LangiumDocument<Model>, chain: Chain, edit: AddBox): TextEdit {
    const model = document.parseResult.value;
    const names = [edit.name, ...[...edit.inputs, ...edit.outputs].flatMap(p => [p.name, p.image])];
    for (const name of names) if (!NAME.test(name)) throw new DiagramEditError(`'${name}' is not a name`);
    if (!/^[A-Za-z_]\w*(\(\s*-?[\d.]+(\s*,\s*-?[\d.]+)*\s*\))?$/.test(edit.kernel.trim()))
        throw new DiagramEditError(`'${edit.kernel}' is not a kernel (name or name(1, 2))`);
    if (model.elements.some(e => isBox(e) && e.name === edit.name))
        throw new DiagramEditError(`a box ${edit.name} is already declared`);
    const ports = new Set<string>();
    for (const p of [...edit.inputs, ...edit.outputs]) {
        if (ports.has(p.name)) throw new DiagramEditError(`box ${edit.name} would have two ports ${p.name}`);
        ports.add(p.name);
    }
    const kernel = edit.kernel
        .trim()
        .replace(/\s*\(\s*/, '(')
        .replace(/\s*,\s*/g, ', ')
        .replace(/\s*\)$/, ')');
    const body = [
        ...edit.inputs.map(p => `    in ${p.name}: ${p.image}`),
        ...edit.outputs.map(p => `    out ${p.name}: ${p.image}`),
        `    kernel ${kernel}`,
    ];
    const text = `box ${edit.name} {\n${body.join('\n')}\n}`;
    const lastBox = model.elements.filter(isBox).at(-1)?.$cstNode?.range.end;
    if (lastBox) return { range: { start: lastBox, end: lastBox }, newText: `\n\n${text}` };
    const before = chain.$cstNode!.range.start;
    return { range: { start: before, end: before }, newText: `${text}\n\n` };
}
