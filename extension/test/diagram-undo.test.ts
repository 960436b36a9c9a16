/**
 * Undo and redo with the focus in a diagram step the history of the document the diagram shows (not whatever
 * editor was active), in that document's own editor column, and give the focus back to the diagram; in Theia,
 * which has no `undo` command id, its `core.undo`.
 */
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { stepDiagramHistory } from '../src/diagram-undo';

type Doc = { uri: { toString(): string } };

// what the mocked vscode API sees and records (hoisted with the mock, which runs before the imports)
const { calls, doc, state } = vi.hoisted(() => {
    const documents = new Map<string, Doc>();
    return {
        calls: [] as string[],
        doc: (uri: string): Doc => documents.get(uri) ?? documents.set(uri, { uri: { toString: () => uri } }).get(uri)!,
        state: {
            commands: ['undo', 'redo'],
            visible: [] as Array<{ document: Doc; viewColumn: number }>,
            active: undefined as { document: Doc } | undefined,
        },
    };
});

vi.mock('vscode', () => ({
    ViewColumn: { One: 1 },
    Uri: { parse: (s: string) => ({ toString: () => s }) },
    workspace: { openTextDocument: (u: { toString(): string }) => Promise.resolve(doc(u.toString())) },
    window: {
        get visibleTextEditors() {
            return state.visible;
        },
        get activeTextEditor() {
            return state.active;
        },
        showTextDocument: (document: Doc, options: { viewColumn: number }) => {
            calls.push(`show ${document.uri.toString()} in ${options.viewColumn}`);
            state.active = { document };
            return Promise.resolve(state.active);
        },
    },
    commands: {
        getCommands: () => Promise.resolve(state.commands),
        executeCommand: (id: string) => Promise.resolve(void calls.push(id)),
    },
}));

function endpoint(uri: string) {
    const panel = { viewColumn: 2, reveal: (column: number) => void calls.push(`reveal diagram in ${column}`) };
    return { diagramIdentifier: { uri }, webviewContainer: panel } as never;
}

describe('undo and redo from a diagram', () => {
    beforeEach(() => {
        calls.length = 0;
        state.commands = ['undo', 'redo'];
        state.active = undefined;
        state.visible = [
            { document: doc('file:///a.chain'), viewColumn: 1 },
            { document: doc('file:///b.chain'), viewColumn: 3 },
        ];
    });

    test("the diagram's document is undone in its own column, then the diagram has the focus again", async () => {
        await stepDiagramHistory(endpoint('file:///b.chain'), 'undo');
        expect(calls).toEqual(['show file:///b.chain in 3', 'undo', 'reveal diagram in 2']);
        calls.length = 0;
        await stepDiagramHistory(endpoint('file:///a.chain'), 'redo');
        expect(calls).toEqual(['show file:///a.chain in 1', 'redo', 'reveal diagram in 2']);
    });

    test('a document in no editor is opened first; Theia steps with its own commands', async () => {
        state.commands = ['core.undo', 'core.redo'];
        await stepDiagramHistory(endpoint('file:///c.chain'), 'undo');
        expect(calls).toEqual(['show file:///c.chain in 1', 'core.undo', 'reveal diagram in 2']);
    });

    test('no diagram active: nothing happens', async () => {
        await stepDiagramHistory(undefined, 'undo');
        expect(calls).toEqual([]);
    });
});
