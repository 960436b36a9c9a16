/**
 * `chainlab/elements`: the chains, ptts (with their components) and targets of a document with their names
 * and ranges, read from the AST, so the editor can offer a choice without parsing .chain text itself.
 */
import { URI, type AstNode, type LangiumDocument } from 'langium';
import type { LangiumSharedServices } from 'langium/lsp';
import type { Connection } from 'vscode-languageserver';
import type { ModelElement, ModelElements, RequestParamsOf } from '@chainlab/contract';
import { isChain, isPtts, isTarget, type Model } from '../generated/ast.js';
import { whenValidated } from '../dsl/document-ready.js';
import { pttsComponents } from '../dsl/model-util.js';

const named = (nodes: AstNode[]): ModelElement[] =>
    nodes
        .filter(e => typeof (e as { name?: unknown }).name === 'string' && e.$cstNode)
        .map(e => ({ name: (e as unknown as { name: string }).name, range: e.$cstNode!.range }));

export function modelElements(model: Model): ModelElements {
    const ptts = model.elements.filter(isPtts).filter(p => typeof p.name === 'string' && p.$cstNode);
    return {
        chain: named(model.elements.filter(isChain)),
        ptts: named(ptts).map((element, i) => ({ ...element, children: named(pttsComponents(ptts[i])) })),
        target: named(model.elements.filter(isTarget)),
    };
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
