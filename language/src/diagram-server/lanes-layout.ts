/**
 * The geometry of the thread lanes (lanes-view.ts) and of the measured overlay (lanes-measured.ts): one
 * fixed-width time axis that every bar is placed on, and where the bars sit in a lane.
 */

export const GANTT = { width: 1040, nameWidth: 190, laneHeight: 44, laneGap: 10, axisHeight: 26, barInset: 8 };

/** [top, bottom] of a bar in its lane. */
export type BarRow = [number, number];

export interface LaneRows {
    laneHeight: number;
    predicted: BarRow;
    measured: BarRow;
}

/**
 * Where the bars sit in a lane: the predicted bar alone fills it; with the measured overlay the measured bar sits
 * under the predicted one, so the two are compared on one time axis.
 */
export function laneRows(measured: boolean): LaneRows {
    if (!measured)
        return {
            laneHeight: GANTT.laneHeight,
            predicted: [GANTT.barInset, GANTT.laneHeight - GANTT.barInset],
            measured: [0, 0],
        };
    return { laneHeight: 62, predicted: [6, 30], measured: [34, 56] };
}

/** A lane of the measured overlay's own (the run's plan had other threads): the measured bar fills it. */
export const RAN_LANE_ROWS: LaneRows = {
    laneHeight: GANTT.laneHeight,
    predicted: [0, 0],
    measured: [GANTT.barInset, GANTT.laneHeight - GANTT.barInset],
};

/** The time axis, 0 .. `end` ns over the plot (right of the label column). */
export interface TimeScale {
    end: number;
    x(t: number): number;
}

export function timeScale(end: number): TimeScale {
    const plotWidth = GANTT.width - GANTT.nameWidth;
    return { end, x: t => GANTT.nameWidth + (t / end) * plotWidth };
}
