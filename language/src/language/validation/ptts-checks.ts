/**
 * PTTS chains: positive periods, offsets inside the period, ETPs that are
 * probability distributions, meaningful requirements, and a warning (with the
 * tree count of thesis eq. 5.15) when the exact analysis would take long.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { ValidationAcceptor, ValidationChecks } from 'langium';
import { AstUtils, URI } from 'langium';
import type { ChainAstType, Component, HistogramEtp, PmfEtp, Ptts, UniformEtp } from '../../generated/ast.js';
import { componentEtp, componentOffset, componentPeriod, pttsComponents, unquote } from '../model-util.js';
import { pttsCost, pttsTiming, proposePeriods, SLOW_ANALYSIS_OPERATIONS, uniformDefaultStep } from '../ptts-cost.js';
import { durationNs, formatNs, parseDecimal, sumDecimals } from '../units.js';
import { Codes } from './diagnostic-codes.js';

/** Probabilities of a pmf must sum to 1 within this tolerance. */
export const PMF_TOLERANCE = 1e-9;

function checkComponent(component: Component, accept: ValidationAcceptor): void {
    const periodNode = componentPeriod(component);
    if (!periodNode) {
        accept('error', `Component '${component.name}' has no period.`, { node: component, property: 'name', data: { code: Codes.missingPeriod } });
    }
    if (!componentEtp(component)) {
        accept('error', `Component '${component.name}' has no execution-time profile (etp point | uniform | pmf | histogram | chain).`, {
            node: component, property: 'name', data: { code: Codes.missingEtp },
        });
    }
    const period = durationNs(periodNode);
    if (periodNode && period.ok && period.value <= 0n) {
        accept('error', `The period of '${component.name}' must be positive.`, { node: periodNode, data: { code: Codes.nonPositivePeriod } });
    }
    const offsetNode = componentOffset(component);
    const offset = durationNs(offsetNode);
    if (offsetNode && offset.ok && period.ok && period.value > 0n && offset.value >= period.value) {
        accept('warning', `Offset ${formatNs(offset.value)} is not below the period ${formatNs(period.value)}; it acts as offset ${formatNs(offset.value % period.value)}.`, {
            node: offsetNode, data: { code: Codes.offsetNotBelowPeriod },
        });
    }
}

function checkPmf(pmf: PmfEtp, accept: ValidationAcceptor): void {
    if (pmf.entries.length === 0) {
        accept('error', 'A pmf needs at least one entry.', { node: pmf, data: { code: Codes.pmfSum } });
        return;
    }
    const seen = new Map<bigint, number>();
    pmf.entries.forEach((entry, index) => {
        const probability = Number(entry.probability);
        if (!(probability > 0 && probability <= 1)) {
            accept('error', `A probability must be in (0, 1], got ${entry.probability}.`, { node: entry, property: 'probability', data: { code: Codes.pmfProbability } });
        }
        const time = durationNs(entry.time);
        if (time.ok) {
            if (seen.has(time.value)) {
                accept('error', `Time ${formatNs(time.value)} appears twice in this pmf (entries ${seen.get(time.value)! + 1} and ${index + 1}).`, {
                    node: entry, property: 'time', data: { code: Codes.pmfDuplicateTime },
                });
            }
            seen.set(time.value, index);
        }
    });
    const sum = sumDecimals(pmf.entries.map(e => String(e.probability)));
    if (sum) {
        const value = Number(sum.numerator) / 10 ** sum.scale;
        if (Math.abs(value - 1) > PMF_TOLERANCE) {
            accept('error', `The probabilities of this pmf sum to ${value}, not 1.`, { node: pmf, property: 'kind', data: { code: Codes.pmfSum } });
        }
    }
}

function checkUniform(uniform: UniformEtp, accept: ValidationAcceptor): void {
    const min = durationNs(uniform.min), max = durationNs(uniform.max);
    const step = uniform.step ? durationNs(uniform.step) : uniformDefaultStep(uniform);
    if (!min.ok || !max.ok || !step.ok) return;
    if (min.value > max.value) {
        accept('error', `Empty range: ${formatNs(min.value)} is above ${formatNs(max.value)}.`, { node: uniform, property: 'kind', data: { code: Codes.uniformRange } });
    } else if (step.value <= 0n) {
        accept('error', 'The step of a uniform distribution must be positive.', { node: uniform.step ?? uniform, data: { code: Codes.uniformRange } });
    } else if ((max.value - min.value) % step.value !== 0n) {
        accept('error', `The range ${formatNs(min.value)} .. ${formatNs(max.value)} is not a whole number of steps of ${formatNs(step.value)}.`, {
            node: uniform, property: 'kind', data: { code: Codes.uniformRange },
        });
    }
}

function checkHistogram(histogram: HistogramEtp, accept: ValidationAcceptor): void {
    const file = histogramPath(histogram);
    if (file && !existsSync(file)) {
        accept('error', `Measurement file not found: ${file}.`, { node: histogram, property: 'file', data: { code: Codes.histogramFile } });
    }
}

/** The histogram's file, resolved against the directory of the .chain file. */
export function histogramPath(histogram: HistogramEtp): string | undefined {
    const raw = histogram.file === undefined ? undefined : unquote(histogram.file);
    if (!raw) return undefined;
    const uri = AstUtils.getDocument(histogram).uri;
    return uri.scheme === 'file' ? resolve(dirname(URI.parse(uri.toString()).fsPath), raw) : raw;
}

function checkCost(ptts: Ptts, accept: ValidationAcceptor): void {
    const timing = pttsTiming(ptts);
    if (!timing) return;
    const cost = pttsCost(timing);
    if (cost.operations <= SLOW_ANALYSIS_OPERATIONS) return;
    const proposals = proposePeriods(timing);
    const hint = proposals.length > 0
        ? ` Nearby periods ${proposals[0].periods.map(formatNs).join(', ')} need ${proposals[0].cost.trees} trees.`
        : '';
    accept('warning', `Exact analysis would build ${cost.trees} latency trees (hyper-period ${formatNs(cost.hyperperiod)}, about ${cost.operations} operations by thesis eq. 5.15) and may take long.${hint}`, {
        node: ptts, property: 'name', data: { code: Codes.slowAnalysis },
    });
}

export const pttsChecks: ValidationChecks<ChainAstType> = {
    Ptts: (ptts, accept) => {
        if (pttsComponents(ptts).length === 0) {
            accept('error', `PTTS chain '${ptts.name}' has no components.`, { node: ptts, property: 'name', data: { code: Codes.emptyPtts } });
        }
        checkCost(ptts, accept);
    },
    Component: checkComponent,
    PmfEtp: checkPmf,
    UniformEtp: checkUniform,
    HistogramEtp: checkHistogram,
    LatencyRequirement: (requirement, accept) => {
        if (requirement.percentile !== undefined) {
            const match = /^p(\d+(?:\.\d+)?)$/.exec(requirement.percentile);
            const q = match ? Number(match[1]) : NaN;
            if (!(q > 0 && q < 100)) {
                accept('error', `'${requirement.percentile}' is not a percentile; write p50, p99 or p99.9.`, {
                    node: requirement, property: 'percentile', data: { code: Codes.badPercentile },
                });
            }
        }
        if (requirement.probability) {
            const value = parseDecimal(requirement.probability.value);
            const p = value ? Number(value.numerator) / 10 ** value.scale / (requirement.probability.percent ? 100 : 1) : NaN;
            if (!(p > 0 && p <= 1)) {
                accept('error', `A probability must be in (0, 1] (or (0, 100] %).`, { node: requirement.probability, data: { code: Codes.badProbability } });
            }
        }
    },
    LossRequirement: (requirement, accept) => {
        const limit = Number(requirement.limit);
        if (!(limit > 0 && limit <= 1)) {
            accept('error', 'A loss limit is a probability in (0, 1].', { node: requirement, property: 'limit', data: { code: Codes.badProbability } });
        }
    },
};
