/** Room for the overlays (src/zoom/overlay-room.ts): corners, free corners and the strips a view leaves. */
import { describe, expect, test } from 'vitest';
import type { Viewport } from 'sprotty-protocol';
import {
    cornerBox,
    freeCorner,
    onScreen,
    OVERLAY_MARGIN,
    roomForOverlays,
    type Overlay,
} from '../src/zoom/overlay-room.js';
import { readableViewport, wholeViewport, type Canvas } from '../src/zoom/viewport-math.js';

const canvas = { width: 800, height: 600 };
const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
    Math.min(a.x + a.width, b.x + b.width) > Math.max(a.x, b.x) &&
    Math.min(a.y + a.height, b.y + b.height) > Math.max(a.y, b.y);

describe('corners', () => {
    test('an overlay sits OVERLAY_MARGIN inside its corner', () => {
        const size = { width: 100, height: 50 };
        expect(cornerBox('top-right', size, canvas)).toEqual({ x: 690, y: OVERLAY_MARGIN, width: 100, height: 50 });
        expect(cornerBox('bottom-left', size, canvas)).toEqual({ x: OVERLAY_MARGIN, y: 540, width: 100, height: 50 });
    });

    test('the first corner no box is in; none where every corner is taken', () => {
        const size = { width: 100, height: 50 };
        const bottomRight = cornerBox('bottom-right', size, canvas);
        expect(freeCorner(size, canvas, [])).toBe('bottom-right');
        expect(freeCorner(size, canvas, [bottomRight])).toBe('top-right');
        expect(freeCorner(size, canvas, [{ x: 0, y: 0, ...canvas }])).toBeUndefined();
    });

    test('nodes on screen: model units through zoom and scroll', () => {
        const viewport = { zoom: 2, scroll: { x: 10, y: 20 } };
        expect(onScreen([{ x: 10, y: 20, width: 5, height: 5 }], viewport)).toEqual([
            { x: 0, y: 0, width: 10, height: 10 },
        ]);
    });
});

describe('the room a view leaves', () => {
    /** A grid of nodes filling 0..w × 0..h (model units). */
    const grid = (w: number, h: number) =>
        Array.from({ length: Math.floor(w / 200) * Math.floor(h / 100) }, (_, i) => ({
            x: (i % Math.floor(w / 200)) * 200,
            y: Math.floor(i / Math.floor(w / 200)) * 100,
            width: 150,
            height: 60,
        }));
    const bounds = (nodes: ReturnType<typeof grid>) => ({
        x: 0,
        y: 0,
        width: Math.max(...nodes.map(n => n.x + n.width)),
        height: Math.max(...nodes.map(n => n.y + n.height)),
    });
    const covers = (viewport: Viewport, overlay: Required<Overlay>, nodes: ReturnType<typeof grid>) =>
        onScreen(nodes, viewport).some(n => overlaps(n, cornerBox(overlay.corner, overlay, canvas)));

    test('Fit: a key that would cover a node gets a strip along its corner, as little zoom lost as can be', () => {
        const nodes = grid(1000, 700);
        const key: Required<Overlay> = { corner: 'top-right', width: 200, height: 120 };
        const place = (room: Canvas) => wholeViewport(bounds(nodes), room);
        expect(covers(place(canvas), key, nodes)).toBe(true);
        const roomy = roomForOverlays(place, canvas, nodes, () => [key]);
        expect(covers(roomy, key, nodes)).toBe(false);
        // the whole drawing still in view
        const seen = onScreen([bounds(nodes)], roomy)[0];
        expect(seen.x).toBeGreaterThanOrEqual(0);
        expect(seen.y + seen.height).toBeLessThanOrEqual(canvas.height);
    });

    test('Readable on a drawing larger than the panel: the overview finds a corner no node is in', () => {
        const nodes = grid(4000, 3000);
        const place = (room: Canvas) => readableViewport(bounds(nodes), room, nodes);
        const overview = { width: 180, height: 135 };
        const plain = place(canvas);
        expect(freeCorner(overview, canvas, onScreen(nodes, plain))).toBeUndefined();
        const roomy = roomForOverlays(place, canvas, nodes, () => [overview]);
        expect(roomy.zoom).toBe(plain.zoom);
        expect(freeCorner(overview, canvas, onScreen(nodes, roomy))).toBeDefined();
    });

    test('nothing moves where no overlay covers a node', () => {
        const nodes = [{ x: 0, y: 0, width: 100, height: 60 }];
        const place = (room: Canvas) => wholeViewport(bounds(nodes), room);
        const key: Overlay = { corner: 'top-right', width: 150, height: 80 };
        expect(roomForOverlays(place, canvas, nodes, () => [key])).toEqual(place(canvas));
    });
});
