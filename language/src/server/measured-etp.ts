/**
 * A run's measurement as the execution-time profile of the PTTS components that run the chain: every
 * `etp chain X` of the document (found in the AST, so comments and layout do not matter) becomes
 * `etp pmf { … }` with the backend's measured ETP, written by the language's one pmf writer.
 */
import { AstUtils, type LangiumDocument } from 'langium';
import type { TextEdit } from 'vscode-languageserver';
import { isChainEtp, isComponent, type ChainEtp } from '../generated/ast.js';
import { pmfText } from '../dsl/pmf-text.js';
import { formatNs } from '../dsl/units.js';
import type { ScenarioResult } from '@chainlab/contract';

export interface Measurement {
    readonly scenario: string;
    /** [latency ns, count] as the backend binned them. */
    readonly points: Array<[number, number]>;
    /** Why these latencies are no execution-time profile (an overloaded or interrupted run); undefined when sound. */
    readonly concern?: string;
}

type MeasuredScenario = Pick<ScenarioResult, 'scenario' | 'etp'> &
    Partial<Pick<ScenarioResult, 'status' | 'overloaded'>>;

/** What a measurement is read from: the scenarios of a run reply (deploy/run) with their measured ETP. */
export interface MeasuredRun {
    readonly scenarios: ReadonlyArray<MeasuredScenario>;
}

/** The measurement a run's ETP comes from: its baseline scenario, else the first that measured anything. */
export function runMeasurement(run: MeasuredRun): Measurement | undefined {
    const measured = run.scenarios.filter(s => Array.isArray(s.etp) && s.etp.length > 0);
    const chosen = measured.find(s => s.scenario === 'baseline') ?? measured[0];
    if (!chosen) return undefined;
    const concern = measurementConcern(chosen);
    return { scenario: chosen.scenario, points: chosen.etp!, ...(concern ? { concern } : {}) };
}

/** Why a scenario's latencies would make a misleading ETP: a backlog (they grew through the run) or a cut-short run. */
export function measurementConcern(scenario: MeasuredScenario): string | undefined {
    if (scenario.overloaded) {
        return (
            `the ${scenario.scenario} run was overloaded: its latency grew through the run (a backlog), ` +
            'so it measured queueing, not the execution time of one frame'
        );
    }
    if (scenario.status && scenario.status !== 'ok') {
        return `the ${scenario.scenario} run did not finish (${scenario.status}): its latencies may not represent the chain`;
    }
    return undefined;
}

/** `pmf { 20.13 ms: 0.05, … }`: the measured points with exact probabilities summing to 1. */
export function measuredPmfText(points: ReadonlyArray<readonly [number, number]>): string {
    return pmfText(points.map(([ns, count]) => [formatNs(BigInt(ns)), BigInt(count)] as const));
}

/** Every `etp chain NAME` of a PTTS component in the document (of any chain when `chain` is undefined). */
export function chainEtps(document: LangiumDocument, chain: string | undefined): ChainEtp[] {
    return AstUtils.streamAst(document.parseResult.value)
        .filter(isChainEtp)
        .filter(
            etp =>
                (chain === undefined || etp.chain?.$refText === chain) &&
                AstUtils.getContainerOfType(etp, isComponent) !== undefined,
        )
        .toArray();
}

/** The edits that write a measurement into every `etp chain NAME` of the document (none if it has none). */
export function measuredEtpEdits(document: LangiumDocument, chain: string, measurement: Measurement): TextEdit[] {
    const text = measuredPmfText(measurement.points);
    return chainEtps(document, chain)
        .filter(etp => etp.$cstNode)
        .map(etp => ({ range: etp.$cstNode!.range, newText: text }));
}
