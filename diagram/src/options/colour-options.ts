/**
 * The diagram options that colour a view by a result, kept per view as KLighD keeps its synthesis options: the
 * box chain and the plan each remember their own choice, and only the choices that mean something in a view are
 * offered there. Changing one asks the server for a new model (the colours are the server's), never new text.
 */
import type { ColourBy, DiagramView } from '@chainlab/contract';

/** Each choice as the panel names it, with what it shows (its title attribute). */
export const COLOUR_CHOICES: ReadonlyArray<{ value: ColourBy; text: string; title: string }> = [
    { value: 'none', text: 'nothing', title: 'no colouring: the thread and kernel colours' },
    { value: 'share', text: 'share of latency', title: "each box's predicted share of the end-to-end latency" },
    { value: 'measured', text: 'measured ÷ calibrated', title: 'after a run: measured time ÷ the calibrated estimate' },
    { value: 'slack', text: 'slack', title: 'how late it may start without delaying the latency (none: critical)' },
    { value: 'memory', text: 'buffer memory', title: 'the bytes of the buffers it writes' },
];

/** The views that can be coloured by results. */
export const COLOURED_VIEWS: readonly DiagramView[] = ['chain', 'plan'];

/** The colouring picked per view; a view not picked for is not coloured (it would clutter by default). */
export type ColourByPerView = Partial<Record<DiagramView, ColourBy>>;

/** What the model request carries for `view`. */
export function colourByOf(choices: ColourByPerView, view: DiagramView | undefined): ColourBy {
    return view && COLOURED_VIEWS.includes(view) ? (choices[view] ?? 'none') : 'none';
}

/** The choices offered in `view`: none where the view cannot be coloured. */
export function choicesFor(view: DiagramView | undefined): typeof COLOUR_CHOICES {
    return view && COLOURED_VIEWS.includes(view) ? COLOUR_CHOICES : [];
}
