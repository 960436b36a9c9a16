/**
 * A run's measurement becomes the ETP of the components that run the chain: the language server picks the
 * measurement (baseline first), writes `pmf { … }` with exact probabilities and finds every `etp chain X` in
 * the AST — also where a comment or a line break sits inside it — as a request and as a quick fix.
 */
import { EmptyFileSystem } from 'langium';
import { parseHelper } from 'langium/test';
import { describe, expect, test } from 'vitest';
import type { CodeAction } from 'vscode-languageserver';
import { METHOD_SCHEMAS, type ModelElement, type Scenario } from '@chainlab/contract';
import { createChainServices } from '../../src/dsl/chain-module.js';
import { exactProbabilities } from '../../src/dsl/pmf-text.js';
import type { Model } from '../../src/generated/ast.js';
import { modelElements } from '../../src/server/element-requests.js';
import { measuredEtpEdits, measuredPmfText, runMeasurement, type MeasuredRun } from '../../src/server/measured-etp.js';
import { RunResults, rememberRun } from '../../src/server/run-results.js';
import { SweepResults } from '../../src/server/sweep-results.js';
import { schemaErrors } from '../contract/contract-ajv.js';
import { createServerModule } from '../../src/server/server-module.js';

const noBackend = { cost: () => Promise.reject(new Error('no backend')) };

function server(runs = new RunResults()) {
    const { Chain } = createChainServices(EmptyFileSystem, {
        language: [createServerModule(noBackend, runs, new SweepResults())],
    });
    return { Chain, runs, parse: parseHelper<Model>(Chain) };
}

const run = (...scenarios: Array<[Scenario, Array<[number, number]> | undefined]>): MeasuredRun => ({
    scenarios: scenarios.map(([scenario, etp]) => ({ scenario, ...(etp ? { etp } : {}) })),
});

const model = [
    'chain Small { }',
    'chain Other { }',
    'ptts System {',
    '    component A period 10 ms etp chain Small',
    '    component B period 10 ms etp /* measured */ chain',
    '        Small // the same chain again',
    '    component C period 10 ms etp chain Other',
    '}',
    'target here { local }',
].join('\n');

describe('the measurement of a run', () => {
    test('the baseline scenario, else the first one that measured anything', () => {
        expect(runMeasurement(run(['congested', [[1, 1]]], ['baseline', [[2, 1]]]))).toEqual({
            scenario: 'baseline',
            points: [[2, 1]],
        });
        expect(runMeasurement(run(['baseline', undefined], ['congested', []], ['throttled', [[3, 2]]]))).toEqual({
            scenario: 'throttled',
            points: [[3, 2]],
        });
        expect(runMeasurement(run(['baseline', undefined]))).toBeUndefined();
    });

    test('an overloaded or cut-short run comes with the concern the editor shows before writing it', () => {
        const scenarios = (extra: object) => ({
            scenarios: [{ scenario: 'baseline' as const, etp: [[1, 1]] as Array<[number, number]>, ...extra }],
        });
        expect(runMeasurement(scenarios({ status: 'ok', overloaded: false }))?.concern).toBeUndefined();
        expect(runMeasurement(scenarios({ status: 'ok', overloaded: true }))?.concern).toMatch(
            /baseline run was overloaded: its latency grew through the run/,
        );
        expect(runMeasurement(scenarios({ status: 'stopped', overloaded: false }))?.concern).toMatch(
            /baseline run did not finish \(stopped\)/,
        );
    });

    test('pmf text: the binned latencies with exact probabilities that sum to one', () => {
        expect(
            measuredPmfText([
                [20_250_000, 447],
                [20_750_000, 186],
                [950_000, 1367],
            ]),
        ).toBe('pmf { 20.25 ms: 0.2235, 20.75 ms: 0.093, 950 us: 0.6835 }');
        // one in three: 0.333333 twice and the remainder on the first largest
        expect(
            measuredPmfText([
                [1_000_000, 1],
                [2_000_000, 1],
                [3_000_000, 1],
            ]),
        ).toBe('pmf { 1 ms: 0.333334, 2 ms: 0.333333, 3 ms: 0.333333 }');
    });
});

describe('exact probabilities (the one pmf writer)', () => {
    const sum = (decimals: string[]) => {
        const scale = Math.max(...decimals.map(d => (d.split('.')[1] ?? '').length));
        return (
            decimals.reduce((s, d) => s + BigInt(d.split('.')[0] + (d.split('.')[1] ?? '').padEnd(scale, '0')), 0n) ===
            10n ** BigInt(scale)
        );
    };

    test('rounded half up, the remainder on the first largest, summing to exactly 1', () => {
        expect(exactProbabilities([1n, 1n, 1n], 2)).toEqual(['0.34', '0.33', '0.33']);
        expect(exactProbabilities([1n, 2n], 6)).toEqual(['0.333333', '0.666667']);
        expect(exactProbabilities([5n, 5n])).toEqual(['0.5', '0.5']);
        for (const weights of [
            [7n, 3n, 11n, 13n],
            [1n, 999_999n],
            [2n, 2n, 2n, 2n, 2n, 2n, 2n],
        ])
            expect(sum(exactProbabilities(weights))).toBe(true);
    });

    test('more digits where a measured bin would round to 0 (it is no impossible latency)', () => {
        const probabilities = exactProbabilities([1n, 2_999_999n]);
        expect(probabilities).toEqual(['0.0000003', '0.9999997']);
        expect(sum(probabilities)).toBe(true);
    });
});

describe('etp chain X in the document', () => {
    test('every `etp chain Small`, also across a comment and a line break, and only those', async () => {
        const { parse } = server();
        const document = await parse(model);
        const edits = measuredEtpEdits(document, 'Small', { scenario: 'baseline', points: [[2_000_000, 1]] });
        expect(edits.map(e => [document.textDocument.getText(e.range), e.newText])).toEqual([
            ['chain Small', 'pmf { 2 ms: 1 }'],
            ['chain\n        Small', 'pmf { 2 ms: 1 }'],
        ]);
        expect(measuredEtpEdits(document, 'Nope', { scenario: 'baseline', points: [[1, 1]] })).toEqual([]);
    });

    test('the quick fix is offered on the line of `etp chain X` once a run of X was measured', async () => {
        const { Chain, runs, parse } = server();
        const document = await parse(model);
        const uri = document.uri.toString();
        const actionsAt = async (line: number) =>
            (
                (await Chain.lsp.CodeActionProvider!.getCodeActions(document, {
                    textDocument: { uri },
                    range: { start: { line, character: 0 }, end: { line, character: 0 } },
                    context: { diagnostics: [] },
                })) as CodeAction[]
            ).map(a => a.title);
        expect(await actionsAt(3)).toEqual([]);
        expect(rememberRun(runs, 'chainlab/analyze', uri, { chain: 'Small' }, run(['baseline', [[1, 1]]]))).toBe(false);
        expect(rememberRun(runs, 'chainlab/deploy', uri, { chain: 'Small' }, run(['baseline', [[2_000_000, 3]]]))).toBe(
            true,
        );
        expect(await actionsAt(3)).toEqual(['Update ETP from measurement (Small)']);
        expect(await actionsAt(5)).toEqual(['Update ETP from measurement (Small)']); // the name on its own line
        expect(await actionsAt(6)).toEqual([]); // chain Other was not run
        const [action] = (await Chain.lsp.CodeActionProvider!.getCodeActions(document, {
            textDocument: { uri },
            range: { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } },
            context: { diagnostics: [] },
        })) as CodeAction[];
        expect(action.edit!.changes![uri]).toHaveLength(2);
        // an overloaded run: no silent edit, the editor's command shows the concern and asks
        const overloaded = run(['baseline', [[2_000_000, 3]]]);
        rememberRun(
            runs,
            'chainlab/deploy',
            uri,
            { chain: 'Small' },
            {
                scenarios: overloaded.scenarios.map(s => ({ ...s, overloaded: true })),
            },
        );
        const [suspect] = (await Chain.lsp.CodeActionProvider!.getCodeActions(document, {
            textDocument: { uri },
            range: { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } },
            context: { diagnostics: [] },
        })) as CodeAction[];
        expect(suspect.title).toBe('Update ETP from measurement (Small): the run is suspect, review first');
        expect(suspect.edit).toBeUndefined();
        expect(suspect.command).toEqual({
            title: 'Update ETP from measurement',
            command: 'chainlab.updateEtpFromMeasurement',
            arguments: [uri, 'Small'],
        });
    });

    test('the elements the commands offer, from the AST', async () => {
        const document = await server().parse(model);
        const elements = modelElements(document.parseResult.value);
        expect(
            Object.fromEntries(
                Object.entries(elements).map(([kind, list]: [string, ModelElement[]]) => [
                    kind,
                    list.map(e => `${e.name}@${e.range.start.line}`),
                ]),
            ),
        ).toEqual({ chain: ['Small@0', 'Other@1'], ptts: ['System@2'], target: ['here@8'] });
        expect(elements.ptts[0].children?.map(c => `${c.name}@${c.range.start.line}`)).toEqual(['A@3', 'B@4', 'C@6']);
        expect(schemaErrors(METHOD_SCHEMAS.languageServer['chainlab/elements'].result, elements)).toEqual([]);
    });
});
