/**
 * What every view builder needs from the generator: unique ids, tracing of diagram elements to the text
 * (selection both ways, diagnostics on nodes) and the user's display options. Keeping this an interface
 * lets the views stay plain functions of the model.
 */
import type { AstNode } from 'langium';
import type { SModelElement } from 'sprotty-protocol';
import type { DiagramOptions } from '@chainlab/contract';

/** The options of the webview's model request (contract/schemas/diagram.schema.json). */
export type ChainlabDiagramOptions = DiagramOptions;

export interface ViewContext {
    readonly options: ChainlabDiagramOptions;
    /** A unique id built from the proposal, remembered for `source` so edges can find it. */
    id(proposal: string, source?: AstNode): string;
    /** The id given to `source` earlier, if any. */
    idOf(source: AstNode | undefined): string | undefined;
    /**
     * Links the element to its text (selection sync) and puts the diagnostics of `issuesOf` (by default the
     * same node) on it.
     */
    trace(element: SModelElement, source: AstNode | undefined, issuesOf?: AstNode): void;
}
