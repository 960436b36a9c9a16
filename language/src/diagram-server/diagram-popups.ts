/**
 * Hover popups of diagram nodes (Sprotty's RequestPopupModelAction, answered by langium-sprotty's popup
 * handler): what the text hover shows for the element's source (one builder: ChainHoverProvider.markdownOf),
 * the box of an instance, what the view computed for this element (a sub-box's slice and predicted times, a
 * trigger's instant) and, for a PTTS component, its ETP's CDF as drawn in the node.
 */
import { isInstance, type Box } from '../generated/ast.js';
import type { AstNode } from 'langium';
import { addHoverPopupHandler, type LangiumSprottyServices } from 'langium-sprotty';
import type { SModelElement, SModelRoot } from 'sprotty-protocol';
import { ChainHoverProvider } from '../dsl/lsp/chain-hover.js';
import { T, type Sparkline } from './diagram-elements.js';
import { linesHtml, markdownHtml } from './markdown-html.js';

type Markdown = Pick<ChainHoverProvider, 'markdownOf'>;

export function addChainlabPopups(services: LangiumSprottyServices): void {
    const hover = services.lsp.HoverProvider;
    // the language's hover is the one source of the popups' text; without it there is nothing to show
    if (!(hover instanceof ChainHoverProvider)) return;
    addHoverPopupHandler(services, (element, request) => {
        const popup = popupModel(element, services.diagram.TraceProvider.getSource(element), hover);
        // where the webview asked for it (beside the pointer): without it the popup opens at the panel's top left
        return popup && { ...popup, canvasBounds: request.bounds };
    });
}

/** The popup of an element, or undefined when there is nothing to say (then no popup opens). */
export function popupModel(
    element: SModelElement,
    source: AstNode | undefined,
    hover: Markdown,
): SModelRoot | undefined {
    const parts: string[] = [];
    const described = source ? hover.markdownOf(source) : undefined;
    if (described) parts.push(markdownHtml(described));
    const box: Box | undefined = source && isInstance(source) ? source.box?.ref : undefined;
    const boxText = box ? hover.markdownOf(box) : undefined;
    if (boxText) parts.push(markdownHtml(boxText));
    const tooltip = (element as { tooltip?: unknown }).tooltip;
    // a box's tooltip lists its ports, which its hover already says; other tooltips say what only the view knows
    if (typeof tooltip === 'string' && tooltip && element.type !== T.box) parts.push(linesHtml(tooltip));
    // the value a colouring shows (results-colouring.ts): the colour alone says only its bin
    const result = (element as { result?: unknown }).result;
    if (typeof result === 'string' && result) parts.push(linesHtml(result));
    const spark = element.children?.find((c): c is Sparkline => c.type === T.sparkline);
    if (spark) parts.push(sparklineSvg(spark));
    if (!parts.length) return undefined;
    return {
        type: T.popup,
        id: `${element.id}-popup`,
        children: [
            {
                type: T.popupBody,
                id: `${element.id}-popup-body`,
                code: `<div class="chainlab-popup">${parts.join('')}</div>`,
            } as SModelElement,
        ],
    };
}

/** The node's ETP CDF, bigger: the sparkline's points (already normalised) with its axes. */
function sparklineSvg(spark: Sparkline): string {
    const [w, h] = [200, 60];
    const d = spark.points
        .map(([x, y], i) => `${i ? 'L' : 'M'}${(4 + x * (w - 8)).toFixed(1)},${(h - 4 - y * (h - 8)).toFixed(1)}`)
        .join(' ');
    return (
        `<div class="popup-picture"><div>ETP as a cumulative probability, min to max</div>` +
        `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">` +
        `<path class="popup-axes" d="M4,4 L4,${h - 4} L${w - 4},${h - 4}" fill="none"/>` +
        `<path class="popup-cdf" d="${d}" fill="none"/></svg></div>`
    );
}
