/** An IR execution-time profile as a list of (ns, probability) points, for sparklines and timelines. */
import type { IrEtp } from '../ir/ir-types.js';

/** The pmf of an ETP; undefined for `etp chain X` (known only after the chain is analysed or measured). */
export function etpPoints(etp: IrEtp | null | undefined): Array<[number, number]> | undefined {
    if (!etp) return undefined;
    switch (etp.kind) {
        case 'point':
            return [[etp.value_ns, 1]];
        case 'uniform': {
            const count = Math.floor((etp.max_ns - etp.min_ns) / Math.max(1, etp.step_ns)) + 1;
            if (count > 2000)
                return [
                    [etp.min_ns, 0.5],
                    [etp.max_ns, 0.5],
                ]; // the CDF's shape is a ramp either way
            return Array.from(
                { length: count },
                (_, i) => [etp.min_ns + i * etp.step_ns, 1 / count] as [number, number],
            );
        }
        case 'pmf':
        case 'histogram':
            return [...etp.points].sort((a, b) => a[0] - b[0]);
        case 'chain':
            return undefined;
    }
}

/** The CDF of the points normalised to the unit square (x: min..max at 0.1..0.9, y: probability). */
export function cdfSparkline(points: Array<[number, number]>): Array<[number, number]> {
    const total = points.reduce((s, [, p]) => s + p, 0) || 1;
    const min = points[0][0];
    const span = points[points.length - 1][0] - min;
    const out: Array<[number, number]> = [[0, 0]];
    let cum = 0;
    for (const [v, p] of points) {
        // jumps at min and max stay off the frame's edges (there they would read as an empty box); a point mass
        // steps in the middle
        const x = span > 0 ? 0.1 + (0.8 * (v - min)) / span : 0.5;
        out.push([x, cum / total]);
        cum += p;
        out.push([x, cum / total]);
    }
    out.push([1, 1]);
    return out;
}

/** Where the value `v` falls on the x axis of cdfSparkline(points): for a marker such as the p99. */
export function sparklineX(points: Array<[number, number]>, v: number): number {
    const min = points[0][0];
    const span = points[points.length - 1][0] - min;
    return span > 0 ? Math.min(1, Math.max(0, 0.1 + (0.8 * (v - min)) / span)) : 0.5;
}
