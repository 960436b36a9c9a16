/**
 * The layout follows the panel that shows it (the webview sends its size as the `viewport` option): a tall
 * half-width panel gets a top-down chain whose inputs are on top and outputs below, narrow enough to read
 * at 100 %; a wide panel gets left to right with ports west and east. Without a size, the half-width panel
 * is assumed. A long chain is wrapped toward the panel's aspect ratio, so that fitted whole it fills the panel.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { SModelElement } from 'sprotty-protocol';
import type { ChainlabGraph } from '../../src/diagram-server/diagram-elements.js';
import { flowOptions } from '../../src/diagram-server/chainlab-layout.js';
import { all, diagram, diagramServices, load, overlaps, repo, sampleFiles, topNodeBounds } from './diagram-helpers.js';

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

/** The synthetic 200-box chain the diagram suite's overview tests draw (`chainlab synth --boxes 200 --seed 1`). */
const synth200 = () => readFileSync(join(repo, 'diagram', 'test', 'fixtures', 'synth-200.chain'), 'utf-8');

describe('a long chain is wrapped for the panel', () => {
    test.each([
        { width: 800, height: 964 },
        { width: 1600, height: 900 },
    ])(
        '200 boxes in a $width × $height panel: an overview close to its shape, nodes apart',
        async viewport => {
            const document = await load(services, '/tmp/synth-200.chain', synth200());
            const graph = await diagram(services, document, { view: 'chain', viewport });
            const nodes = topNodeBounds(graph);
            expect(nodes.length).toBe(200);
            const { width, height } = extent(graph);
            const ratio = width / height / (viewport.width / viewport.height);
            expect(ratio, `${Math.round(width)} × ${Math.round(height)}`).toBeGreaterThan(0.5);
            expect(ratio).toBeLessThan(2);
            for (let i = 0; i < nodes.length; i++)
                for (let j = i + 1; j < nodes.length; j++) expect(overlaps(nodes[i], nodes[j])).toBe(false);
        },
        30_000,
    );
});

describe('a short, wide panel (an editor above a bottom panel) gets top-down columns side by side', () => {
    const short = { width: 1600, height: 384 };

    test('the flow options: down, wrapped toward a drawing wider than the panel; other shapes as before', () => {
        const options = flowOptions(short, 25);
        expect(options['org.eclipse.elk.direction']).toBe('DOWN');
        expect(Number(options['org.eclipse.elk.aspectRatio'])).toBeGreaterThan(short.width / short.height);
        expect(flowOptions({ width: 1600, height: 900 }, 25)['org.eclipse.elk.direction']).toBe('RIGHT');
        expect(flowOptions({ width: 800, height: 1000 }, 25)['org.eclipse.elk.direction']).toBe('DOWN');
        // a chain whose row fits the panel's width stays one row
        expect(flowOptions(short, 4)['org.eclipse.elk.direction']).toBe('RIGHT');
    });

    test('the X-ray chain: inputs north, outputs south, columns about as tall as the panel', async () => {
        const document = await load(services, xray);
        const graph = await diagram(services, document, { view: 'chain', viewport: short });
        expect(portSides(graph, 'port:in')).toEqual(new Set(['N']));
        expect(portSides(graph, 'port:out')).toEqual(new Set(['S']));
        const { width, height } = extent(graph);
        expect(height, `${Math.round(width)} × ${Math.round(height)}`).toBeLessThan(2 * short.height);
        expect(width).toBeGreaterThan(3 * height);
    });

    test('200 boxes: laid out, nodes apart', async () => {
        const document = await load(services, '/tmp/synth-200.chain', synth200());
        const nodes = topNodeBounds(await diagram(services, document, { view: 'chain', viewport: short }));
        expect(nodes.length).toBe(200);
        for (let i = 0; i < nodes.length; i++)
            for (let j = i + 1; j < nodes.length; j++) expect(overlaps(nodes[i], nodes[j])).toBe(false);
    }, 30_000);
});
