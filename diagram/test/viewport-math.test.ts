/**
 * The zoom arithmetic without a browser: Fit shows the whole drawing at any scale, Readable never goes below
 * readable text, zooming keeps the anchor point fixed and the drawing in view, and zoomed-out short names
 * stay unique.
 */
import { describe, expect, test } from 'vitest';
import {
    keepInView,
    PADDING,
    READABLE_ZOOM,
    readableViewport,
    revealViewport,
    wholeViewport,
    zoomAbout,
} from '../src/zoom/viewport-math.js';
import { abbreviate, shortNames } from '../src/zoom/short-names.js';
import { freeCorner, onScreen, roomForOverlays } from '../src/zoom/overlay-room.js';
import synth200Nodes from './fixtures/synth-200-chain-nodes.json';

const canvas = { width: 800, height: 964 };
const inside = (v: { zoom: number; scroll: { x: number; y: number } }, b: typeof long) =>
    b.x >= v.scroll.x - 1e-6 &&
    b.y >= v.scroll.y - 1e-6 &&
    b.x + b.width <= v.scroll.x + canvas.width / v.zoom + 1e-6 &&
    b.y + b.height <= v.scroll.y + canvas.height / v.zoom + 1e-6;
const long = { x: 0, y: 0, width: 4900, height: 5900 };
const small = { x: 0, y: 0, width: 300, height: 200 };

describe('fit', () => {
    test('Fit shows the whole of a drawing far larger than the panel, centred', () => {
        const v = wholeViewport(long, canvas);
        expect(v.zoom).toBeLessThan(0.2);
        expect(inside(v, long)).toBe(true);
        expect(v.scroll.x + canvas.width / v.zoom / 2).toBeCloseTo(long.width / 2, 6);
    });

    test('Fit never enlarges a small drawing past 100 %', () => {
        expect(wholeViewport(small, canvas).zoom).toBe(1);
    });

    test('Readable stays at readable zoom and starts at the top-left corner', () => {
        const v = readableViewport(long, canvas);
        expect(v.zoom).toBeCloseTo(READABLE_ZOOM, 6);
        expect(v.scroll.x).toBeCloseTo(-PADDING / v.zoom, 6);
        expect(v.scroll.y).toBeCloseTo(-PADDING / v.zoom, 6);
    });

    test('Readable moves right to the first nodes where the top-left corner holds none (a centred plan)', () => {
        const row = (y: number, from: number) =>
            [0, 1, 2, 3].map(i => ({ x: from + i * 200, y, width: 170, height: 116 }));
        // four thread columns at x 2000..2770 above a layer that spans the whole width
        const nodes = [...row(20, 2000), ...row(200, 2000), ...row(1500, 0)];
        const v = readableViewport(long, canvas, nodes);
        expect(v.scroll.x).toBeCloseTo(2000 - PADDING / v.zoom, 6);
        for (const n of row(20, 2000)) expect(inside(v, n), `column at ${n.x}`).toBe(true);
        // where a node starts near the corner, the view starts at that node
        expect(readableViewport(long, canvas, [...nodes, { x: 10, y: 30, width: 90, height: 40 }]).scroll.x).toBe(
            10 - PADDING / v.zoom,
        );
    });

    test("Readable keeps the drawing's start wholly in view where the first screen holds a wider layer", () => {
        // a source at x 3000 above a layer spanning 0..3200 within the first screen's height
        const source = { x: 3000, y: 0, width: 150, height: 100 };
        const layer = Array.from({ length: 17 }, (_, i) => ({ x: i * 190, y: 300, width: 170, height: 100 }));
        const v = readableViewport(long, canvas, [source, ...layer]);
        expect(inside(v, source)).toBe(true);
        expect(v.scroll.x + canvas.width / v.zoom).toBeCloseTo(source.x + source.width + PADDING / v.zoom, 6);
    });

    test('Readable never leaves more than the padding empty right of the drawing', () => {
        const nodes = [
            { x: 4700, y: 0, width: 200, height: 100 },
            { x: 0, y: 5800, width: 200, height: 100 },
        ];
        const v = readableViewport(long, canvas, nodes);
        expect(v.scroll.x + canvas.width / v.zoom).toBeCloseTo(long.width + PADDING / v.zoom, 6);
    });
});

describe('Readable on the 200-box synth chain, as the language server wraps it for an 800 × 964 panel', () => {
    const nodes = synth200Nodes;
    const x0 = Math.min(...nodes.map(n => n.x));
    const y0 = Math.min(...nodes.map(n => n.y));
    const bounds = {
        x: x0,
        y: y0,
        width: Math.max(...nodes.map(n => n.x + n.width)) - x0,
        height: Math.max(...nodes.map(n => n.y + n.height)) - y0,
    };
    const place = (room: typeof canvas) => readableViewport(bounds, room, nodes);
    /** The ids of the nodes wholly in the canvas at `viewport`, and each one's box there. */
    const whole = (viewport: ReturnType<typeof place>) =>
        new Map(
            onScreen(nodes, viewport)
                .map((box, i) => [nodes[i].id, box] as const)
                .filter(([, b]) => b.x >= 0 && b.y >= 0 && b.x + b.width <= 800 && b.y + b.height <= 964),
        );

    test('the source and the first column are wholly in view, the source at the top-left', () => {
        // the drawing's corner is held by b8, far below: the first column starts 640 units to its right
        const v = place(canvas);
        const seen = whole(v);
        for (const id of ['in0', 'b1', 'b2', 'b3', 'b4']) expect(seen.has(id), id).toBe(true);
        const source = seen.get('in0')!;
        expect(source.x).toBeLessThan(100);
        expect(source.y).toBeLessThan(50);
        expect(Math.min(...[...seen.values()].map(b => b.x))).toBeCloseTo(PADDING, 6);
    });

    test('with room for the overview, which finds a corner no node is in', () => {
        const scale = Math.min(180 / bounds.width, 140 / bounds.height);
        const overview = { width: bounds.width * scale, height: bounds.height * scale };
        const v = roomForOverlays(place, canvas, nodes, () => [overview]);
        expect(v.zoom).toBeCloseTo(READABLE_ZOOM, 6);
        expect(freeCorner(overview, canvas, onScreen(nodes, v))).toBeDefined();
        const seen = whole(v);
        expect(seen.has('in0')).toBe(true);
        expect(seen.size).toBeGreaterThanOrEqual(3);
        expect(seen.get('in0')!.x).toBeLessThan(100);
    });
});

describe('zoom', () => {
    test('the point under the anchor stays under it', () => {
        const before = { zoom: 0.8, scroll: { x: 100, y: 50 } };
        const anchor = { x: 300, y: 700 };
        const after = zoomAbout(before, 0.8 / 1.15, anchor);
        const at = (v: typeof before) => ({ x: v.scroll.x + anchor.x / v.zoom, y: v.scroll.y + anchor.y / v.zoom });
        expect(at(after).x).toBeCloseTo(at(before).x, 6);
        expect(at(after).y).toBeCloseTo(at(before).y, 6);
    });

    test('twenty − clicks about the centre keep the drawing in view and end with it whole and centred', () => {
        let v = readableViewport(long, canvas);
        for (let i = 0; i < 20; i++) {
            v = keepInView(zoomAbout(v, v.zoom / 1.15, { x: 400, y: 482 }), long, canvas);
            // no empty band wider than the padding at any edge while the drawing is larger than the panel
            const view = { w: canvas.width / v.zoom, h: canvas.height / v.zoom };
            if (long.height * v.zoom > canvas.height)
                expect(v.scroll.y).toBeGreaterThanOrEqual(-PADDING / v.zoom - 1e-6);
            if (long.width * v.zoom <= canvas.width && long.height * v.zoom <= canvas.height)
                expect(inside(v, long)).toBe(true);
            expect(view.w).toBeGreaterThan(0);
        }
        expect(inside(v, long)).toBe(true);
    });

    test('zooming out about a corner point does not push a small drawing out of the panel', () => {
        let v = wholeViewport(small, canvas);
        for (let i = 0; i < 10; i++) v = keepInView(zoomAbout(v, v.zoom / 1.15, { x: 790, y: 950 }), small, canvas);
        expect(inside(v, small)).toBe(true);
    });
});

describe('keep in view', () => {
    test('a drawing that fits only without the padding is centred, never cut', () => {
        const tight = { x: 0, y: 0, width: 790, height: 100 };
        const v = keepInView({ zoom: 1, scroll: { x: -300, y: 0 } }, tight, canvas);
        expect(v.scroll.x).toBeCloseTo(-5, 6);
        expect(inside(v, tight)).toBe(true);
    });

    test('a drawing larger than the panel leaves at most the padding empty', () => {
        const v = keepInView({ zoom: 1, scroll: { x: -500, y: 9000 } }, long, canvas);
        expect(v.scroll.x).toBeCloseTo(-PADDING, 6);
        expect(v.scroll.y).toBeCloseTo(long.height + PADDING - canvas.height, 6);
    });
});

describe('reveal', () => {
    const canvas = { width: 800, height: 600 };
    test('a box beyond the right edge is scrolled in with the padding, the zoom kept', () => {
        const viewport = { zoom: 1, scroll: { x: 0, y: 0 } };
        const revealed = revealViewport(viewport, { x: 900, y: 100, width: 180, height: 120 }, canvas);
        expect(revealed.zoom).toBe(1);
        expect(revealed.scroll).toEqual({ x: 900 + 180 + PADDING - 800, y: 0 });
    });

    test('a box already in view moves nothing; one larger than the panel shows its top-left', () => {
        const viewport = { zoom: 2, scroll: { x: 10, y: 10 } };
        expect(revealViewport(viewport, { x: 50, y: 50, width: 100, height: 100 }, canvas)).toEqual(viewport);
        const big = revealViewport(viewport, { x: 500, y: 500, width: 1000, height: 100 }, canvas);
        expect(big.scroll.x).toBe(500 - PADDING / 2);
    });
});

describe('short names', () => {
    test('the shortest start no other name shares, or the initials of a camelCase name', () => {
        const shorts = shortNames([
            'dark',
            'darkref',
            'defects',
            'detector',
            'darkFrameSubtract',
            'tnr',
            'b117',
            'b11',
        ]);
        expect(shorts.get('darkref')).toBe('darkr');
        expect(shorts.get('dark')).toBe('dark');
        expect(shorts.get('defects')).toBe('def');
        expect(shorts.get('darkFrameSubtract')).toBe('dFS');
        expect(shorts.get('tnr')).toBe('tn');
        expect(shorts.get('b117')).toBe('b117');
        expect(shorts.get('b11')).toBe('b11');
        expect(abbreviate('gain2')).toBe('g2');
    });

    test('every name gets a different short name', () => {
        const names = [
            'darkFrame',
            'detectorFix',
            'dF',
            'gain',
            'gain2',
            'grab',
            ...Array.from({ length: 500 }, (_, i) => `b${i}`),
        ];
        const shorts = shortNames(names);
        expect(new Set(shorts.values()).size).toBe(names.length);
        expect(shorts.get('dF')).toBe('dF');
        expect(shorts.get('darkFrame')).not.toBe('dF');
    });
});
