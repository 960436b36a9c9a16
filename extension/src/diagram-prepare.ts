/**
 * What a new diagram panel's first model request will most likely ask for, so that the language server can lay it
 * out while the webview loads (`chainlab/prepareDiagram`): the latest request of a panel of the same view (its size,
 * the display choices) with this panel's document and element. A new panel usually opens where the last one did, and
 * a view's toolbar takes the same rows of it (the canvas of another view may be a row taller or shorter).
 */
import type { DiagramOptions, PrepareDiagramParams } from '@chainlab/contract';

/** The global-state key of the latest model request's options, by view. */
export const LAST_REQUEST_KEY = 'chainlab.lastDiagramRequest';

/** The latest model request of each view. */
export type LastRequests = Partial<Record<string, DiagramOptions>>;

/**
 * `last` with a model request's options remembered for its view: what the layout depends on, not whose request it
 * was; `last` itself where the request says no size.
 */
export function rememberRequest(
    last: LastRequests | undefined,
    options: Record<string, unknown> | undefined,
): LastRequests | undefined {
    if (!options || typeof options.viewport !== 'object' || options.viewport === null) return last;
    const { sourceUri: _uri, diagramType: _type, needsClientLayout: _c, needsServerLayout: _s, ...rest } = options;
    const view = typeof rest.view === 'string' && rest.view ? rest.view : 'chain';
    return { ...last, [view]: rest };
}

/**
 * The preparation of a panel for `uri`, `view` and `element` from the latest request of its view; none before a
 * panel of the view has told its size (a guess would most likely lay out a drawing nobody asks for, beside the
 * webview's own start).
 */
export function preparation(
    last: LastRequests | undefined,
    panel: { uri: string; diagramType: string; view?: string; element?: string },
): PrepareDiagramParams | undefined {
    const latest = last?.[panel.view || 'chain'];
    if (!latest?.viewport) return undefined;
    const options = {
        ...latest,
        view: panel.view ?? '',
        element: panel.element ?? '',
        diagramType: panel.diagramType,
    } as DiagramOptions;
    return { sourceUri: panel.uri, options };
}
