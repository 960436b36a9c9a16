/**
 * The language keeps the contract: the grammar's schedule and memory keywords are the contract's enums, the
 * server serves exactly the contract's requests, what the editor sends validates against the request schemas
 * and, with the IR added, against the backend method's params; real backend replies validate on this side too.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
    FORWARDED_REQUESTS,
    HEURISTICS,
    LANGUAGE_SERVER_REQUESTS,
    MEMORY_ALLOCATORS,
    METHOD_SCHEMAS,
    type LanguageServerRequest,
} from '@chainlab/contract';
import { BackendClient } from '../../src/backend-rpc/backend-client.js';
import { ANALYSIS_REQUESTS } from '../../src/server/analysis-requests.js';
import { venvPython } from '../backend-rpc/contract-backends.js';
import { loadIr } from '../../src/cli/commands.js';
import { schemaErrors } from './contract-ajv.js';

const languageDir = join(__dirname, '..', '..');
const grammar = readFileSync(join(languageDir, 'src', 'dsl', 'chain.langium'), 'utf-8');
const keywords = (rule: string) =>
    /'([^']+)'/g[Symbol.matchAll](new RegExp(`^${rule} returns string: (.*);$`, 'm').exec(grammar)![1]);
const quiet = { out: () => undefined, err: () => undefined };
let xray: ReturnType<typeof loadIr> | undefined;
/** The IR of samples/xray.chain (the CLI's loader reads a file once per process). */
const xrayIr = async () => (await (xray ??= loadIr(join(languageDir, '..', 'samples', 'xray.chain'), quiet)))!;

describe('the contract on the language side', () => {
    test("the grammar writes the contract's heuristics and memory allocators", () => {
        expect([...keywords('Heuristic')].map(m => m[1])).toEqual([...HEURISTICS]);
        expect([...keywords('MemoryKind')].map(m => m[1])).toEqual([...MEMORY_ALLOCATORS]);
    });

    test("the server serves the contract's forwarded requests and its own (diagram edit, measured ETP and its offer, elements)", () => {
        expect(Object.keys(ANALYSIS_REQUESTS).sort()).toEqual(Object.keys(FORWARDED_REQUESTS).sort());
        const own = [
            'chainlab/diagramEdit',
            'chainlab/etpFromMeasurement',
            'chainlab/etpOffer',
            'chainlab/elements',
            'chainlab/offsetsEdit',
            'chainlab/periodsEdit',
            'chainlab/importModel',
            'chainlab/importTimings',
        ];
        expect([...LANGUAGE_SERVER_REQUESTS].sort()).toEqual([...Object.keys(FORWARDED_REQUESTS), ...own].sort());
    });

    const sent: Array<[LanguageServerRequest, Record<string, unknown>]> = [
        ['chainlab/analyze', { uri: 'file:///m.chain', ptts: 'System', progressToken: 'p1' }],
        ['chainlab/simulate', { uri: 'file:///m.chain', ptts: 'System', iterations: 1000, seed: 0 }],
        [
            'chainlab/explore',
            { uri: 'file:///m.chain', ptts: 'System', vary: ['Wall'], objective: 'p99', step_ns: 1_000_000 },
        ],
        ['chainlab/plan', { uri: 'file:///m.chain', chain: 'XRay', heuristic: 'reduced' }],
        ['chainlab/generate', { uri: 'file:///m.chain', chain: 'XRay', out: '/tmp/generated/XRay' }],
        [
            'chainlab/deploy',
            {
                uri: 'file:///m.chain',
                chain: 'XRay',
                target: 'here',
                scenario: 'baseline',
                iterations: 200,
                runs: '/tmp/runs',
                progressToken: 'r',
            },
        ],
        ['chainlab/diagramEdit', { uri: 'file:///m.chain', op: 'connect', chain: 'XRay', from: 'a.o', to: 'b.i' }],
        ['chainlab/etpFromMeasurement', { uri: 'file:///m.chain', chain: 'XRay' }],
        ['chainlab/etpOffer', { uri: 'file:///m.chain', chain: 'XRay' }],
        ['chainlab/elements', { uri: 'file:///m.chain' }],
        ['chainlab/offsetsEdit', { uri: 'file:///m.chain', ptts: 'System', offsets_ns: { Process: 5_000_000 } }],
        ['chainlab/nearbyPeriods', { uri: 'file:///m.chain', ptts: 'System', progressToken: 'n' }],
        ['chainlab/periodsEdit', { uri: 'file:///m.chain', ptts: 'System', periods_ns: { Wall: 16_650_000 } }],
        ['chainlab/importModel', { path: '/models/pipeline.sdf3.xml', format: 'sdf3', progressToken: 'i' }],
    ];

    test.each(sent)('%s: what the editor sends validates', (request, params) => {
        expect(schemaErrors(METHOD_SCHEMAS.languageServer[request].params, params)).toEqual([]);
        expect(schemaErrors(METHOD_SCHEMAS.languageServer[request].params, { ...params, bogus: 1 })).toContain(
            '/ must NOT have unevaluated properties',
        );
    });

    test.each(sent.filter(([request]) => request in FORWARDED_REQUESTS))(
        "%s: forwarded with the IR, it is the backend method's params",
        async (request, params) => {
            const ir = await xrayIr();
            const { uri: _uri, progressToken: _token, ...rest } = params;
            const method = FORWARDED_REQUESTS[request as keyof typeof FORWARDED_REQUESTS];
            expect(schemaErrors(METHOD_SCHEMAS.backend[method].params, { ...rest, ir })).toEqual([]);
        },
    );

    test('real replies of the backend validate here too', async () => {
        const ir = await xrayIr();
        const backend = BackendClient.start(venvPython);
        try {
            const plan = await backend.request('plan/make', { ir, chain: 'XRay' });
            expect(schemaErrors(METHOD_SCHEMAS.backend['plan/make'].result, plan)).toEqual([]);
            const analysis = await backend.request('ptts/analyze', { ir, ptts: 'System' });
            expect(schemaErrors(METHOD_SCHEMAS.backend['ptts/analyze'].result, analysis)).toEqual([]);
        } finally {
            await backend.stop();
        }
    }, 60_000);
});
