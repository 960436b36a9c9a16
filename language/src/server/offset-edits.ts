/**
 * `chainlab/offsetsEdit`: the one text edit that gives components of a ptts new offsets, e.g. the best point
 * of an offset sweep (Explore offsets). An existing `offset` is replaced; a component without one gets
 * ` offset X` after its period. The editor applies the edit, so undo works.
 */
import { URI, type LangiumDocument } from 'langium';
import type { LangiumSharedServices } from 'langium/lsp';
import { ResponseError, type Connection, type TextEdit } from 'vscode-languageserver';
import { ERROR_CODES, type RequestParamsOf, type RequestResultOf } from '@chainlab/contract';
import { isPtts, type Model } from '../generated/ast.js';
import { whenValidated } from '../dsl/document-ready.js';
import { componentOffset, componentPeriod, pttsComponents } from '../dsl/model-util.js';
import { formatNs } from '../dsl/units.js';

export class OffsetsEditError extends Error {}

/** The edits that set `offsets` (ns per component name) in ptts `pttsName` of the document. */
export function offsetEdits(
    document: LangiumDocument<Model>,
    pttsName: string,
    offsets: Readonly<Record<string, number>>,
): TextEdit[] {
    const ptts = document.parseResult.value.elements.filter(isPtts).find(p => p.name === pttsName);
    if (!ptts) throw new OffsetsEditError(`no ptts named ${pttsName}`);
    const components = new Map(pttsComponents(ptts).map(c => [c.name, c]));
    const unknown = Object.keys(offsets).filter(name => !components.has(name));
    if (unknown.length > 0) throw new OffsetsEditError(`ptts ${pttsName} has no component ${unknown.join(', ')}`);
    return Object.entries(offsets).map(([name, ns]) => {
        const component = components.get(name)!;
        const text = formatNs(ns);
        const offset = componentOffset(component)?.$cstNode;
        if (offset) return { range: offset.range, newText: text };
        // after the period (every component has one; else after the name)
        const after = (componentPeriod(component)?.$cstNode ?? component.$cstNode)!.range.end;
        return { range: { start: after, end: after }, newText: `  offset ${text}` };
    });
}

export function registerOffsetRequests(connection: Connection, shared: LangiumSharedServices): void {
    connection.onRequest(
        'chainlab/offsetsEdit',
        async (params: RequestParamsOf<'chainlab/offsetsEdit'>): Promise<RequestResultOf<'chainlab/offsetsEdit'>> => {
            const documents = shared.workspace.LangiumDocuments;
            const uri = URI.parse(params.uri);
            const document = (
                documents.hasDocument(uri) ? documents.getDocument(uri) : await documents.getOrCreateDocument(uri)
            ) as LangiumDocument<Model>;
            await whenValidated(shared, document);
            try {
                const edits = offsetEdits(document, params.ptts, params.offsets_ns);
                return { components: edits.length, edit: { changes: { [document.textDocument.uri]: edits } } };
            } catch (error) {
                if (error instanceof OffsetsEditError)
                    throw new ResponseError(ERROR_CODES.MODEL_ERROR, `${params.uri}: ${error.message}`);
                throw error;
            }
        },
    );
}
