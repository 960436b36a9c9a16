/**
 * The diagram choices the extension remembers (the latest of any panel) arrive with the diagram identifier; they
 * were written by this webview, perhaps of an older version, and are taken only where they still fit.
 */
import { DIAGRAM_VIEWS, HEURISTICS, type ColourBy, type DiagramChoices } from '@chainlab/contract';
import { COLOUR_CHOICES } from './colour-options.js';

const FLAGS = ['showPorts', 'showCosts', 'showMeasured', 'showCritical'] as const;

/** The parts of `value` that are valid choices; anything else is left out (the toolbar keeps its default). */
export function rememberedChoices(value: unknown): DiagramChoices {
    if (typeof value !== 'object' || value === null) return {};
    const given = value as Record<string, unknown>;
    const choices: DiagramChoices = {};
    for (const flag of FLAGS) if (typeof given[flag] === 'boolean') choices[flag] = given[flag];
    const heuristic = given.heuristic;
    if (heuristic === '' || (HEURISTICS as readonly unknown[]).includes(heuristic))
        choices.heuristic = heuristic as DiagramChoices['heuristic'];
    if (typeof given.colourBy === 'object' && given.colourBy !== null) {
        const colourBy: NonNullable<DiagramChoices['colourBy']> = {};
        for (const [view, by] of Object.entries(given.colourBy))
            if ((DIAGRAM_VIEWS as readonly string[]).includes(view) && COLOUR_CHOICES.some(c => c.value === by))
                colourBy[view as keyof typeof colourBy] = by as ColourBy;
        choices.colourBy = colourBy;
    }
    return choices;
}
