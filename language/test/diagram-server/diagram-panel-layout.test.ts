/**
 * The layout follows the panel that shows it (the webview sends its size as the `viewport` option): a tall
 * half-width panel gets a top-down chain whose inputs are on top and outputs below, narrow enough to read
 * at 100 %; a wide panel gets left to right with ports west and east. Without a size, the half-width panel
 * is assumed.
 */
import { describe, expect, test } from 'vitest';
import type { SModelElement } from 'sprotty-protocol';
import type { ChainlabGraph } from '../../src/diagram-server/diagram-elements.js';
import { all, diagram, diagramServices, load, sampleFiles, topNodeBounds } from './diagram-helpers.js';

const services = diagramServices({
    plan: () => Promise.reject(new Error('no plans in this test')),
});
const xray = sampleFiles().find(f => f.endsWith('xray.chain'))!;

type Placed = SModelElement & { position: { x: number; y: number }; size: { width: number; height: number } };

/** Each port's side in its box: where its centre lies relative to the box's centre. */
function portSides(graph: ChainlabGraph, type: string): Set<string> {
    const sides = new Set<string>();
    for (const box of all(graph).filter(e => e.type === 'node:box') as Placed[])
        for (const port of (box.children ?? []).filter(c => c.type === type) as Placed[]) {
            const x = port.position.x + port.size.width / 2 - box.size.width / 2;
            const y = port.position.y + port.size.height / 2 - box.size.height / 2;
            sides.add(
                Math.abs(x) / box.size.width > Math.abs(y) / box.size.height ? (x < 0 ? 'W' : 'E') : y < 0 ? 'N' : 'S',
            );
        }
    return sides;
}

function extent(graph: ChainlabGraph): { width: number; height: number } {
    const nodes = topNodeBounds(graph);
    return {
        width: Math.max(...nodes.map(n => n.x + n.width)),
        height: Math.max(...nodes.map(n => n.y + n.height)),
    };
}

describe('the layout fits the shape of the panel', () => {
    test('a tall panel: top-down, inputs north, outputs south, the 25-box chain fits an 800 px width', async () => {
        const document = await load(services, xray);
        for (const viewport of [{ width: 800, height: 1000 }, undefined]) {
            const graph = await diagram(services, document, { view: 'chain', viewport });
            expect(graph.viewport).toEqual(viewport);
            expect(portSides(graph, 'port:in')).toEqual(new Set(['N']));
            expect(portSides(graph, 'port:out')).toEqual(new Set(['S']));
            const { width, height } = extent(graph);
            expect(width).toBeLessThan(800);
            expect(height).toBeGreaterThan(width);
        }
    });

    test('a wide panel: left to right, inputs west, outputs east', async () => {
        const document = await load(services, xray);
        const graph = await diagram(services, document, { view: 'chain', viewport: { width: 1600, height: 900 } });
        expect(portSides(graph, 'port:in')).toEqual(new Set(['W']));
        expect(portSides(graph, 'port:out')).toEqual(new Set(['E']));
        const { width, height } = extent(graph);
        expect(width).toBeGreaterThan(height);
    });
});
