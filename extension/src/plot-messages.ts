/**
 * What the extension and the plot webview say to each other (internal to the extension: both sides are bundled
 * from this repository at the same time, so these types are the whole protocol).
 */
import type { ExplorePlotData } from './explore-data';
import type { PeriodsPlotData } from './periods-data';
import type { LatencyPlotData } from './plot-data';

/** Extension → webview: the view to draw. */
export type PlotViewData = LatencyPlotData | ExplorePlotData | PeriodsPlotData;

export type ExportFormat = 'svg' | 'png' | 'csv';

/** Webview → extension. */
export type PlotRequest =
    | { type: 'ready' }
    /** A file to save: text for SVG and CSV, base64 for PNG. */
    | { type: 'export'; format: ExportFormat; name: string; content: string }
    | { type: 'compare' }
    | { type: 'openReport' }
    | { type: 'applyBest' }
    /** *Apply* on one row of a table of proposals (nearby periods): its index in the reply. */
    | { type: 'applyProposal'; index: number };
