/**
 * What every view builder needs from the generator: unique ids, tracing of diagram elements to the text
 * (selection both ways, diagnostics on nodes) and the user's display options. Keeping this an interface
 * lets the views stay plain functions of the model.
 */
import type { AstNode } from 'langium';
import type { SModelElement } from 'sprotty-protocol';
import type { DiagramView } from './diagram-elements.js';

export interface ChainlabDiagramOptions {
    view?: DiagramView;
    /** The chain or ptts to show (default: the first one in the file). */
    element?: string;
    /** Plan view: the heuristic to plan with (default: the chain's own). */
    heuristic?: string;
    /** Timeline view: the window in ns (default: the first hyper-period, at most 40 triggers per lane). */
    window?: [number, number];
    showPorts?: boolean;
    showCosts?: boolean;
}

export interface ViewContext {
    readonly options: ChainlabDiagramOptions;
    /** A unique id built from the proposal, remembered for `source` so edges can find it. */
    id(proposal: string, source?: AstNode): string;
    /** The id given to `source` earlier, if any. */
    idOf(source: AstNode | undefined): string | undefined;
    /** Links the element to its text (selection sync) and puts the node's diagnostics on it. */
    trace(element: SModelElement, source: AstNode | undefined): void;
}
