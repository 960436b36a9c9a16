/**
 * Requirements on the latency chart: the bound as a dashed line with its verdict above the frame, the allowed
 * exceedance as a cross on the curve's axis, the region a curve must not enter (CCDF), and loss requirements as
 * levels of the CCDF.
 */
import * as Plot from '@observablehq/plot';
import { formatProbability } from '../../src/number-format';
import type { LatencyPlotData, RequirementVerdict } from '../../src/plot-data';
import { BACKGROUND, COLOURS, FAIL, FOREGROUND, TAIL_FLOOR } from './theme';
import type { Mode } from './scales';

/**
 * The requirements drawn on the latency axis, one per bound: a run judges each on the prediction and on every
 * scenario, and its line says PASS only where all of them pass.
 */
export function drawnRequirements(d: LatencyPlotData): RequirementVerdict[] {
    const drawn = new Map<string, RequirementVerdict>();
    for (const r of d.requirements.filter(r => r.ms !== undefined)) {
        const seen = drawn.get(r.text);
        drawn.set(r.text, seen ? { ...seen, passed: seen.passed && r.passed } : { ...r, series: undefined });
    }
    return [...drawn.values()];
}

/** Where a curve must not go on the CCDF: beyond the bound, above the allowed exceedance (under the curves). */
export function requirementRegions(d: LatencyPlotData, domain: [number, number]): Plot.Markish[] {
    return drawnRequirements(d)
        .filter(r => r.exceedance !== undefined && r.exceedance > 0)
        .map(r =>
            Plot.rect([r], {
                x1: r.ms!,
                x2: domain[1],
                y1: Math.max(r.exceedance!, TAIL_FLOOR),
                y2: 1,
                fill: r.passed ? COLOURS[2] : FAIL,
                fillOpacity: 0.08,
                clip: true,
                className: 'requirement-region',
            }),
        );
}

/** Each bound, its verdict (above the frame, one row each) and the allowed probability. */
export function requirementMarks(d: LatencyPlotData, m: Mode, domain: [number, number]): Plot.Markish[] {
    const marks: Plot.Markish[] = [];
    const drawn = drawnRequirements(d);
    drawn.forEach((r, i) => {
        const colour = r.passed ? FOREGROUND : FAIL;
        marks.push(
            Plot.ruleX([r.ms!], {
                stroke: colour,
                strokeDasharray: '6 4',
                strokeWidth: 1.5,
                clip: true,
                className: 'requirement',
            }),
        );
        const right = (r.ms! - domain[0]) / (domain[1] - domain[0]) > 0.6;
        marks.push(
            Plot.text([r], {
                x: r.ms!,
                frameAnchor: 'top',
                dy: -6 - (drawn.length - 1 - i) * 16,
                textAnchor: right ? 'end' : 'start',
                lineAnchor: 'bottom',
                text: () => `${r.text}: ${r.passed ? 'PASS' : 'FAIL'}`,
                fill: FOREGROUND,
                fontWeight: 'bold',
                className: 'requirement-label',
            }),
        );
        if (r.exceedance !== undefined && m !== 'pmf') {
            const p = m === 'cdf' ? 1 - r.exceedance : Math.max(r.exceedance, TAIL_FLOOR);
            marks.push(Plot.dot([r], { x: r.ms!, y: p, symbol: 'times', r: 6, stroke: colour, strokeWidth: 2 }));
        }
    });
    return marks;
}

/**
 * Loss requirements on the CCDF: a lost frame never arrives, so the tail can never fall below the loss
 * probability. The limit and the loss found are levels (horizontal lines) labelled at the left, where the tail
 * leaves room (the curve is near 1 there): the upper label above its line, the lower one below its line. A level
 * under the axis' 10⁻⁶ is named at the floor and not drawn.
 */
export function lossMarks(d: LatencyPlotData, width: number): Plot.Markish[] {
    const marks: Plot.Markish[] = [];
    for (const r of d.requirements.filter(r => r.loss !== undefined)) {
        const { limit, value } = r.loss!;
        const lines = [
            {
                level: limit,
                text: `${r.text}: ${r.passed ? 'PASS' : 'FAIL'}`,
                stroke: r.passed ? FOREGROUND : FAIL,
                dash: '6 4',
                className: 'loss-limit',
            },
            {
                level: value,
                text: value > 0 ? `lost frames ${formatProbability(value)}` : 'no frame lost',
                stroke: FOREGROUND,
                dash: '1 3',
                className: 'loss-level',
            },
        ]
            .map(line => ({ ...line, y: Math.max(line.level, TAIL_FLOOR), under: line.level < TAIL_FLOOR }))
            .sort((a, b) => b.y - a.y);
        lines.forEach((line, i) => {
            const atFloor = line.y < TAIL_FLOOR * 1.5;
            const below = i > 0 && !atFloor;
            if (!line.under)
                marks.push(
                    Plot.ruleY([line.y], {
                        stroke: line.stroke,
                        strokeDasharray: line.dash,
                        strokeWidth: 1.5,
                        className: line.className,
                    }),
                );
            marks.push(
                Plot.text([line], {
                    y: line.y,
                    frameAnchor: 'left',
                    // a second label on the floor goes beside the first
                    dx: i > 0 && atFloor ? Math.round(width / 2) : 6,
                    dy: below ? 10 : -8,
                    textAnchor: 'start',
                    text: () => (line.under ? `${line.text} (below the axis)` : line.text),
                    fill: FOREGROUND,
                    stroke: BACKGROUND,
                    strokeWidth: 3,
                    fontWeight: line.className === 'loss-limit' ? 'bold' : 'normal',
                    className: `${line.className}-label`,
                }),
            );
        });
    }
    return marks;
}
