/**
 * `chainlab/elements`: the chains, ptts and targets of a document with their names and ranges, read from
 * the AST, so the editor can offer a choice without parsing .chain text itself.
 */
import { URI, type LangiumDocument } from 'langium';
import type { LangiumSharedServices } from 'langium/lsp';
import type { Connection } from 'vscode-languageserver';
import type { ModelElement, ModelElements, RequestParamsOf } from '@chainlab/contract';
import { isChain, isPtts, isTarget, type Model } from '../generated/ast.js';
import { whenValidated } from '../dsl/document-ready.js';

export function modelElements(model: Model): ModelElements {
    const of = (guard: (n: unknown) => boolean): ModelElement[] =>
        model.elements
            .filter(e => guard(e) && typeof (e as { name?: unknown }).name === 'string' && e.$cstNode)
            .map(e => ({ name: (e as unknown as { name: string }).name, range: e.$cstNode!.range }));
    return { chain: of(isChain), ptts: of(isPtts), target: of(isTarget) };
}

export function registerElementRequests(connection: Connection, shared: LangiumSharedServices): void {
    connection.onRequest(
        'chainlab/elements',
        async (params: RequestParamsOf<'chainlab/elements'>): Promise<ModelElements> => {
            const documents = shared.workspace.LangiumDocuments;
            const uri = URI.parse(params.uri);
            const document = (
                documents.hasDocument(uri) ? documents.getDocument(uri) : await documents.getOrCreateDocument(uri)
            ) as LangiumDocument<Model>;
            await whenValidated(shared, document);
            return modelElements(document.parseResult.value);
        },
    );
}
