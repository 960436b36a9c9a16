/**
 * Which key a view shows over its canvas: a view coloured by a result has lost its thread colours, and its key
 * says what the colours mean now; a colouring with nothing to show yet (no run yet) keeps them, and their key
 * says why. Shared by the view that draws the key and the zoom that makes room for it.
 */
import type { SModelRootImpl } from 'sprotty';
import { colourKey, keyEntries, type PanelKey } from './colour-key.js';
import { colouringOf, heatKey } from './options/heat-key.js';

export function panelKey(root: SModelRootImpl, baseDiv: string): PanelKey | undefined {
    const colouring = colouringOf(root);
    if (colouring && (colouring.bins.length > 0 || keyEntries(root).length === 0)) return heatKey(root, baseDiv);
    return colourKey(root, baseDiv, colouring ? [`${colouring.title}:`, colouring.note ?? ''] : []);
}
