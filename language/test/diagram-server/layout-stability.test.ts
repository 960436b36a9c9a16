/**
 * Unchanged nodes keep their places across edits: deleting a connection (or adding a box) must not swap the
 * boxes that stay in one layer, nor reorder a box's ports. The reader's mental map of the drawing survives.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { SModelElement } from 'sprotty-protocol';
import type { ChainlabGraph } from '../../src/diagram-server/diagram-elements.js';
import { all, diagram, diagramServices, load, repo, topNodeBounds } from './diagram-helpers.js';

const services = diagramServices({ plan: () => Promise.reject(new Error('no plans in this test')) });
const path = join(repo, 'samples', 'chains', 'fig3-5.chain');
const text = readFileSync(path, 'utf-8');
const TALL = { width: 800, height: 1000 };
const WIDE = { width: 1600, height: 900 };

type Placed = SModelElement & { position: { x: number; y: number }; size: { width: number; height: number } };

async function drawn(source: string, viewport: { width: number; height: number }): Promise<ChainlabGraph> {
    const document = await load(services, path, source);
    return diagram(services, document, { view: 'chain', viewport });
}

/** Boxes by layer (their position along the flow) and their order across it. */
function layers(graph: ChainlabGraph, down: boolean): Map<string, { layer: number; across: number }> {
    const boxes = topNodeBounds(graph).filter(b => !b.id.includes('->'));
    return new Map(boxes.map(b => [b.id, { layer: Math.round(down ? b.y : b.x), across: down ? b.x : b.y }] as const));
}

/** Pairs of boxes that share a layer in both drawings but appear in the opposite order across it. */
function swapped(before: ChainlabGraph, after: ChainlabGraph, down: boolean): string[] {
    const [a, b] = [layers(before, down), layers(after, down)];
    const ids = [...a.keys()].filter(id => b.has(id));
    const swaps: string[] = [];
    for (const x of ids)
        for (const y of ids) {
            if (x >= y) continue;
            const [ax, ay, bx, by] = [a.get(x)!, a.get(y)!, b.get(x)!, b.get(y)!];
            if (ax.layer !== ay.layer || bx.layer !== by.layer) continue;
            if (Math.sign(ax.across - ay.across) !== Math.sign(bx.across - by.across)) swaps.push(`${x}/${y}`);
        }
    return swaps;
}

/** Each box's ports in drawn order along its sides. */
function portOrder(graph: ChainlabGraph): Map<string, string> {
    const order = new Map<string, string>();
    for (const box of all(graph).filter(e => e.type === 'node:box') as Placed[]) {
        const ports = (box.children ?? []).filter(c => c.type.startsWith('port:')) as Placed[];
        ports.sort((p, q) => p.position.x - q.position.x || p.position.y - q.position.y);
        order.set(box.id, ports.map(p => p.id).join(','));
    }
    return order;
}

const connections = text.split('\n').filter(line => /^\s+\w+\.\w+\s+->/.test(line));
/** Each edit: its name and the text after it. */
const edits: Array<[string, string]> = [
    ...connections.map((line): [string, string] => [`without "${line.trim()}"`, text.replace(`${line}\n`, '')]),
    ['with a Gain added', text.replace('    output: Output\n', '    output: Output\n    gain1:  Gain\n')],
    [
        'with a Gain added and connected',
        text
            .replace('    mul.o      -> output.i\n', '    mul.o      -> output.i\n    mul.o      -> gain1.i\n')
            .replace('    output: Output\n', '    output: Output\n    gain1:  Gain\n'),
    ],
];

describe('unchanged nodes keep their places across edits', () => {
    for (const [name, viewport] of [
        ['tall', TALL],
        ['wide', WIDE],
    ] as const)
        test(`${name} panel: deleting any one connection or adding a box swaps no boxes, reorders no ports`, async () => {
            const before = await drawn(text, viewport);
            const failures: string[] = [];
            for (const [edit, edited] of edits) {
                expect(edited).not.toBe(text);
                const after = await drawn(edited, viewport);
                const swaps = swapped(before, after, name === 'tall');
                if (swaps.length) failures.push(`${edit}: ${swaps.join(' ')}`);
                const [p, q] = [portOrder(before), portOrder(after)];
                for (const [box, ports] of p)
                    if (q.has(box) && q.get(box) !== ports) failures.push(`${edit}: ${box} ports`);
            }
            expect(failures).toEqual([]);
        });
});
