/**
 * Where diagram edits enter the language server: the `chainlab/diagramEdit` request (commands, tests) and
 * the `chainlabEdit` action the webview sends over `diagram/accept` (palette, connect, delete). Both turn
 * the edit into a WorkspaceEdit the server asks the editor to apply, so the text stays the source of truth
 * and undo works (a rename is the language's textDocument/rename, one WorkspaceEdit); a refused edit
 * answers with the reason (a response error, or a status line in the diagram).
 */
import { URI, type LangiumDocument, type LangiumDocuments } from 'langium';
import type { LangiumSprottyServices, LangiumSprottySharedServices } from 'langium-sprotty';
import type { Action } from 'sprotty-protocol';
import { ResponseError, type Connection, type WorkspaceEdit } from 'vscode-languageserver';
import type { LangiumServices } from 'langium/lsp';
import {
    DIAGRAM_EDIT_ACTION,
    ERROR_CODES,
    type DiagramEditAction,
    type RequestParamsOf,
    type RequestResultOf,
} from '@chainlab/contract';
import type { Model } from '../generated/ast.js';
import { diagramEdits, DiagramEditError, renamePosition, type DiagramEdit } from '../diagram-server/diagram-edits.js';

async function applyDiagramEdits(
    connection: Connection,
    documents: LangiumDocuments,
    services: (uri: URI) => LangiumServices,
    uri: string,
    edits: DiagramEdit[],
): Promise<RequestResultOf<'chainlab/diagramEdit'>> {
    const document = documents.getDocument(URI.parse(uri)) as LangiumDocument<Model> | undefined;
    if (!document) throw new DiagramEditError(`${uri} is not open`);
    const label = `diagram: ${[...new Set(edits.map(e => e.op))].join(', ')}`;
    const edit =
        edits.length === 1 && edits[0].op === 'renameInstance'
            ? await rename(services(document.uri), document, edits[0])
            : diagramEdits(document, edits);
    const result = await connection.workspace.applyEdit({ label, edit });
    return { applied: result.applied };
}

/** textDocument/rename at the instance's name: the declaration and every reference, as one WorkspaceEdit. */
async function rename(
    language: LangiumServices,
    document: LangiumDocument<Model>,
    edit: DiagramEdit & { op: 'renameInstance' },
): Promise<WorkspaceEdit> {
    const provider = language.lsp.RenameProvider;
    if (!provider) throw new DiagramEditError('the language has no rename provider');
    const params = { textDocument: { uri: document.uri.toString() }, position: renamePosition(document, edit) };
    let result: WorkspaceEdit | undefined;
    try {
        result = await provider.rename(document, { ...params, newName: edit.newName });
    } catch (error) {
        // the provider refuses names (keywords, clashes) with a response error: the diagram shows its reason
        throw new DiagramEditError(error instanceof Error ? error.message : String(error));
    }
    if (!result) throw new DiagramEditError(`nothing to rename at ${edit.name}`);
    return result;
}

export function registerDiagramEditRequests(
    connection: Connection,
    shared: LangiumSprottySharedServices,
    diagrams: LangiumSprottyServices,
): void {
    const documents = shared.workspace.LangiumDocuments;
    const services = (uri: URI) => shared.ServiceRegistry.getServices(uri) as LangiumServices;
    connection.onRequest('chainlab/diagramEdit', async (params: RequestParamsOf<'chainlab/diagramEdit'>) => {
        try {
            return await applyDiagramEdits(connection, documents, services, params.uri, [params]);
        } catch (error) {
            if (error instanceof DiagramEditError)
                throw new ResponseError(ERROR_CODES.DIAGRAM_EDIT_REFUSED, `${params.uri}: ${error.message}`);
            throw error;
        }
    });
    diagrams.diagram.ServerActionHandlerRegistry.onAction<DiagramEditAction & Action>(
        DIAGRAM_EDIT_ACTION,
        async (action, state, server) => {
            const sourceUri = state.options?.sourceUri;
            const uri = typeof sourceUri === 'string' ? sourceUri : '';
            try {
                if (!Array.isArray(action.edits)) throw new DiagramEditError('the action carries no edits');
                const { applied } = await applyDiagramEdits(connection, documents, services, uri, action.edits);
                await server.dispatch(
                    serverStatus(applied ? '' : 'the editor did not apply the edit', applied ? 'OK' : 'WARNING'),
                );
            } catch (error) {
                await server.dispatch(
                    serverStatus(
                        `diagram edit refused: ${error instanceof Error ? error.message : String(error)}`,
                        'ERROR',
                    ),
                );
            }
        },
    );
}

/**
 * Sprotty's client-side ServerStatusAction (the webview shows it in its status line); sprotty-protocol has no type for
 * it.
 */
function serverStatus(message: string, severity: 'OK' | 'WARNING' | 'ERROR'): Action {
    return { kind: 'serverStatus', message, severity } as Action;
}
