/**
 * The shared vectors (tests/ptts-cost-vectors, split-vectors, cycle-vectors) against the language: where
 * the editor and the backend must give the same answer, both are checked against the same file
 * (backend/tests/test_shared_vectors.py is the other side). Each vector's IR is what the language exports
 * from its source, so the backend is tested on exactly the input the editor would send.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { isChain, isPtts, type Chain, type Ptts } from '../../src/generated/ast.js';
import { chainInstances } from '../../src/dsl/model-util.js';
import { pttsCost, pttsTiming } from '../../src/dsl/ptts-cost.js';
import { resolvedSchedule } from '../../src/dsl/resolved-schedule.js';
import { kernelHaloRows } from '../../src/dsl/row-slices.js';
import { exportIr } from '../../src/ir/ir-export.js';
import { codeOf } from '../test-utils.js';
import { check } from '../validation/helpers.js';

const tests = join(__dirname, '..', '..', '..', 'tests');

function vectors<T>(folder: string): Array<T & { file: string; source: string; ir: unknown; description: string }> {
    const dir = join(tests, folder);
    return readdirSync(dir)
        .filter(f => f.endsWith('.json'))
        .map(file => ({ file, ...JSON.parse(readFileSync(join(dir, file), 'utf-8')) }));
}

/** The vector's source, validated, and its IR as the language exports it (loc files named after the vector). */
async function load(vector: { file: string; source: string; ir: unknown }) {
    const document = await check(vector.source);
    const model = document.parseResult.value;
    const ir = exportIr(model, {
        file: vector.file.replace(/\.json$/, '.chain'),
        readFile: () => '',
        resolvePath: p => p,
    });
    expect(ir, 'the vector carries the IR the language exports').toEqual(vector.ir);
    return { document, model };
}

interface CostVector {
    ptts: string;
    expected: {
        grid_ns: string;
        hyperperiod_ns: string;
        roots: string;
        branching: string[];
        eq_5_15: string;
        over_tree_limit: boolean;
    };
}

describe('tests/ptts-cost-vectors: grid, hyper-period, trees, eq. 5.15 and the tree-limit verdict', () => {
    const all = vectors<CostVector>('ptts-cost-vectors');
    test('there are vectors on both sides of the limit', () => {
        expect(all.length).toBeGreaterThanOrEqual(10);
        expect(new Set(all.map(v => v.expected.over_tree_limit))).toEqual(new Set([true, false]));
    });
    test.each(all)('$file: $description', async vector => {
        const { document, model } = await load(vector);
        const ptts = model.elements.find(e => isPtts(e) && e.name === vector.ptts) as Ptts;
        const cost = pttsCost(pttsTiming(ptts)!);
        expect(cost.complete).toBe(true);
        expect({
            grid_ns: String(cost.grid),
            hyperperiod_ns: String(cost.hyperperiod),
            roots: String(cost.trees),
            branching: cost.branching.map(String),
            eq_5_15: String(cost.operations),
            over_tree_limit: cost.overTreeLimit,
        }).toEqual(vector.expected);
        // the warning appears exactly where the backend refuses
        const warned = (document.diagnostics ?? []).some(d => codeOf(d) === 'slow-analysis');
        expect(warned).toBe(vector.expected.over_tree_limit);
        expect((document.diagnostics ?? []).filter(d => d.severity === 1)).toEqual([]);
    });
});

interface SplitVector {
    chain: string;
    expected: {
        threads: number;
        cores: number[];
        instances: Record<
            string,
            {
                slices: number;
                rows: number[][];
                depends: string;
                halo_rows: number;
                kernel_halo_rows: number;
                reads: number[][];
            }
        >;
    };
}

describe('tests/split-vectors: threads, cores and the sub-boxes of every instance', () => {
    const all = vectors<SplitVector>('split-vectors');
    test('there are vectors', () => expect(all.length).toBeGreaterThanOrEqual(5));
    test.each(all)('$file: $description', async vector => {
        const { document, model } = await load(vector);
        expect((document.diagnostics ?? []).filter(d => d.severity === 1)).toEqual([]);
        const chain = model.elements.find(e => isChain(e) && e.name === vector.chain) as Chain;
        const schedule = resolvedSchedule(chain);
        expect({ threads: schedule.threads, cores: schedule.cores }).toEqual({
            threads: vector.expected.threads,
            cores: vector.expected.cores,
        });
        const instances = Object.fromEntries(
            chainInstances(chain).map(instance => {
                const split = schedule.slicesOf(instance)!;
                return [
                    instance.name,
                    {
                        slices: split.rows.length,
                        rows: split.rows,
                        depends: split.depends,
                        halo_rows: split.halo,
                        kernel_halo_rows: kernelHaloRows(instance.box.ref!),
                        reads: split.reads,
                    },
                ];
            }),
        );
        expect(instances).toEqual(vector.expected.instances);
    });
});

interface CycleVector {
    chain: string;
    expected: { cycle: string | null; line?: number; order?: string[] };
}

describe('tests/cycle-vectors: the cycle without delay, at the connection that closes it', () => {
    const all = vectors<CycleVector>('cycle-vectors');
    test('there are cyclic and acyclic vectors', () => {
        expect(all.some(v => v.expected.cycle === null) && all.some(v => v.expected.cycle !== null)).toBe(true);
    });
    test.each(all)('$file: $description', async vector => {
        const { document } = await load(vector);
        const cycles = (document.diagnostics ?? []).filter(d => codeOf(d) === 'cycle');
        if (vector.expected.cycle === null) {
            expect(cycles).toEqual([]);
        } else {
            const first = cycles.find(d => d.range.start.line + 1 === vector.expected.line);
            expect(first?.message).toBe(`Cycle without delay: ${vector.expected.cycle}.`);
        }
    });
});
