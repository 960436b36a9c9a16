/**
 * The colours of the plot view: CSS variables over the theme's chart colours (plot.css; a bare page such as
 * report.html gives them VS Code's default values), so one series has one colour in the panel, the report and
 * the exported files.
 */
import type { LatencyPlotData } from '../../src/plot-data';

/** The series' colours in the order they are handed out. */
export const COLOURS = [
    'var(--chainlab-chart-blue)',
    'var(--chainlab-chart-orange)',
    'var(--chainlab-chart-green)',
    'var(--chainlab-chart-purple)',
    'var(--chainlab-chart-yellow)',
];
export const FAIL = 'var(--chainlab-chart-red)';
export const FOREGROUND = 'var(--vscode-editor-foreground, #333)';
export const BACKGROUND = 'var(--vscode-editor-background, #fff)';

/** The CCDF's lowest decade: tails are read down to one in a million (cyclictest/OSADL practice). */
export const TAIL_FLOOR = 1e-6;

/** A series' colour: the result's own curves first, then the compared ones (dashed) continue the palette. */
export function colourOf(d: LatencyPlotData, name: string): string {
    const ordered = [...d.series.filter(s => s.kind !== 'compared'), ...d.series.filter(s => s.kind === 'compared')];
    const i = ordered.findIndex(s => s.name === name);
    return COLOURS[Math.max(0, i) % COLOURS.length];
}
