/**
 * `chainlab/offsetsEdit` and `chainlab/periodsEdit`: the one text edit that gives components of a ptts new offsets
 * (the best point of an offset sweep, Explore offsets) or new periods (a nearby-periods proposal). Only values
 * that change are written, each the way the file writes durations (duration-edit.ts); a component without an
 * `offset` gets `  offset X` after its period. The editor applies the edit, so undo works.
 */
import type { LangiumDocument } from 'langium';
import type { LangiumSharedServices } from 'langium/lsp';
import { ResponseError, type Connection, type TextEdit } from 'vscode-languageserver';
import { ERROR_CODES, type RequestParamsOf, type RequestResultOf } from '@chainlab/contract';
import { isPtts, type Duration, type Model } from '../generated/ast.js';
import { validatedDocument } from '../dsl/document-ready.js';
import { componentOffset, componentPeriod, pttsComponents } from '../dsl/model-util.js';
import { durationNs } from '../dsl/units.js';
import { durationEdit, durationText } from './duration-edit.js';

export class OffsetsEditError extends Error {}

function componentsOf(document: LangiumDocument<Model>, pttsName: string, named: string[]) {
    const ptts = document.parseResult.value.elements.filter(isPtts).find(p => p.name === pttsName);
    if (!ptts) throw new OffsetsEditError(`no ptts named ${pttsName}`);
    const components = new Map(pttsComponents(ptts).map(c => [c.name, c]));
    const unknown = named.filter(name => !components.has(name));
    if (unknown.length > 0) throw new OffsetsEditError(`ptts ${pttsName} has no component ${unknown.join(', ')}`);
    return components;
}

/** Whether `duration` is not `ns` already (one that cannot be read is rewritten). */
function changed(duration: Duration, ns: number): boolean {
    const now = durationNs(duration);
    return !now.ok || now.value !== BigInt(ns);
}

/** The edits that set `periods` (ns per component name) in ptts `pttsName` of the document. */
export function periodEdits(
    document: LangiumDocument<Model>,
    pttsName: string,
    periods: Readonly<Record<string, number>>,
): TextEdit[] {
    const components = componentsOf(document, pttsName, Object.keys(periods));
    return Object.entries(periods).flatMap(([name, ns]) => {
        const period = componentPeriod(components.get(name)!);
        const edit = period && changed(period, ns) ? durationEdit(document, period, ns) : undefined;
        return edit ? [edit] : [];
    });
}

/** The edits that set `offsets` (ns per component name) in ptts `pttsName` of the document. */
export function offsetEdits(
    document: LangiumDocument<Model>,
    pttsName: string,
    offsets: Readonly<Record<string, number>>,
): TextEdit[] {
    const components = componentsOf(document, pttsName, Object.keys(offsets));
    return Object.entries(offsets).flatMap(([name, ns]) => {
        const component = components.get(name)!;
        const offset = componentOffset(component);
        if (offset) {
            const edit = changed(offset, ns) ? durationEdit(document, offset, ns) : undefined;
            return edit ? [edit] : [];
        }
        if (ns === 0) return []; // no offset is offset 0
        // after the period, in its unit (every component has one; else after the name)
        const period = componentPeriod(component);
        const after = (period?.$cstNode ?? component.$cstNode)!.range.end;
        return [{ range: { start: after, end: after }, newText: `  offset ${durationText(ns, period?.unit)}` }];
    });
}

/**
 * The edits that give ptts `pttsName` the offsets and periods of one point (a sweep's best): one edit per
 * component, so an offset added after a period that changes too is part of that period's edit (LSP edits must not
 * overlap).
 */
export function pointEdits(
    document: LangiumDocument<Model>,
    pttsName: string,
    offsets: Readonly<Record<string, number>>,
    periods: Readonly<Record<string, number>> = {},
): TextEdit[] {
    const periodChanges = periodEdits(document, pttsName, periods);
    const merged: TextEdit[] = [];
    for (const edit of offsetEdits(document, pttsName, offsets)) {
        const inserted =
            edit.range.start.line === edit.range.end.line && edit.range.start.character === edit.range.end.character;
        const at = inserted
            ? periodChanges.find(
                  p =>
                      p.range.end.line === edit.range.start.line &&
                      p.range.end.character === edit.range.start.character,
              )
            : undefined;
        if (at) at.newText += edit.newText;
        else merged.push(edit);
    }
    return [...periodChanges, ...merged];
}

export function registerOffsetRequests(connection: Connection, shared: LangiumSharedServices): void {
    const serve = async (
        uri: string,
        edits: (document: LangiumDocument<Model>) => TextEdit[],
    ): Promise<RequestResultOf<'chainlab/offsetsEdit'>> => {
        const document = await validatedDocument(shared, uri);
        try {
            const changes = edits(document);
            return { components: changes.length, edit: { changes: { [document.textDocument.uri]: changes } } };
        } catch (error) {
            if (error instanceof OffsetsEditError)
                throw new ResponseError(ERROR_CODES.MODEL_ERROR, `${uri}: ${error.message}`);
            throw error;
        }
    };
    connection.onRequest('chainlab/offsetsEdit', (params: RequestParamsOf<'chainlab/offsetsEdit'>) =>
        serve(params.uri, document => pointEdits(document, params.ptts, params.offsets_ns, params.periods_ns)),
    );
    connection.onRequest('chainlab/periodsEdit', (params: RequestParamsOf<'chainlab/periodsEdit'>) =>
        serve(params.uri, document => periodEdits(document, params.ptts, params.periods_ns)),
    );
}
