/**
 * What the extension and the plot webview say to each other (internal to the extension: both sides are bundled
 * from this repository at the same time, so these types are the whole protocol).
 */
import type { ExplorePlotData } from './explore-data';
import type { LatencyPlotData } from './plot-data';

/** Extension → webview: the view to draw. */
export type PlotViewData = LatencyPlotData | ExplorePlotData;

export type ExportFormat = 'svg' | 'png' | 'csv';

/** Webview → extension. */
export type PlotRequest =
    | { type: 'ready' }
    /** A file to save: text for SVG and CSV, base64 for PNG. */
    | { type: 'export'; format: ExportFormat; name: string; content: string }
    | { type: 'compare' }
    | { type: 'openReport' }
    | { type: 'applyBest' };
