/**
 * The body of a hover popup: the language server's HTML (Sprotty's PreRenderedView). Sprotty gives the SVG
 * namespace only to a root <svg>; the CDF pictures sit inside the popup's HTML, so every nested <svg> gets it
 * here (without it the browser makes unknown HTML elements of them and draws nothing).
 */
import { injectable } from 'inversify';
import type { VNode } from 'snabbdom';
import { PreRenderedView, setNamespace } from 'sprotty';

const SVG = 'http://www.w3.org/2000/svg';

@injectable()
export class PopupBodyView extends PreRenderedView {
    protected override correctNamespace(node: VNode): void {
        if (node.sel === 'svg') setNamespace(node, SVG);
        else for (const child of node.children ?? []) if (typeof child !== 'string') this.correctNamespace(child);
    }
}
