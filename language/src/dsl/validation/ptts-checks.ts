/**
 * PTTS chains: positive periods, offsets inside the period, ETPs that are
 * probability distributions, meaningful requirements, and a warning (with the
 * tree count and thesis eq. 5.15) when the backend would refuse the exact analysis.
 */
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { ValidationAcceptor, ValidationChecks } from 'langium';
import { AstUtils, URI } from 'langium';
import { PMF_SUM_TOLERANCE } from '@chainlab/contract';
import type { ChainAstType, Component, HistogramEtp, PmfEtp, Ptts, UniformEtp } from '../../generated/ast.js';
import {
    boxSource,
    chainInstances,
    componentEtp,
    componentOffset,
    componentPeriod,
    pttsComponents,
    pttsResolution,
    unquote,
} from '../model-util.js';
import { etpSpan, MAX_TREES, pttsCost, pttsTiming, uniformDefaultStep } from '../ptts-cost.js';
import { durationNs, formatRatio, parseDecimal, readableNs, sumDecimals } from '../units.js';
import { Codes } from './diagnostic-codes.js';
import { quoteCell, quoteColumns } from '../quote-data.js';
import { readMeasurementFile } from '../regular-file.js';

/** Probabilities of a pmf must sum to 1 within this tolerance: the contract's rule, which the backend applies too. */
export const PMF_TOLERANCE = PMF_SUM_TOLERANCE;
/** The same tolerance as an exact decimal. */
const PMF_TOLERANCE_EXACT = parseDecimal(String(PMF_SUM_TOLERANCE))!;

/**
 * A component whose ETP is a box chain is triggered at the chain's rate: when the chain's source says
 * otherwise, one of the two periods is a mistake (the PTTS model would analyse another system than
 * the one planned and run).
 */
function checkChainPeriod(component: Component, accept: ValidationAcceptor): void {
    const etp = componentEtp(component);
    const chain = etp?.kind === 'chain' ? etp.chain?.ref : undefined;
    const period = durationNs(componentPeriod(component));
    if (!chain || !period.ok) return;
    for (const instance of chainInstances(chain)) {
        const box = instance.box?.ref;
        const sourcePeriod = box ? durationNs(boxSource(box)?.period) : undefined;
        if (box && sourcePeriod?.ok && sourcePeriod.value !== period.value) {
            accept(
                'warning',
                `Component '${component.name}' runs chain '${chain.name}' every ${readableNs(period.value)}, but its source '${instance.name}' (box ${box.name}) has period ${readableNs(sourcePeriod.value)}.`,
                {
                    node: etp!,
                    data: { code: Codes.chainPeriodMismatch },
                },
            );
            return;
        }
    }
}

function checkComponent(component: Component, accept: ValidationAcceptor): void {
    checkChainPeriod(component, accept);
    if (component.name === undefined) return; // a syntax error; its diagnostic says enough
    const periodNode = componentPeriod(component);
    if (!periodNode) {
        accept('error', `Component '${component.name}' has no period.`, {
            node: component,
            property: 'name',
            data: { code: Codes.missingPeriod },
        });
    }
    if (!componentEtp(component)) {
        accept(
            'error',
            `Component '${component.name}' has no execution-time profile (etp point | uniform | pmf | histogram | chain).`,
            {
                node: component,
                property: 'name',
                data: { code: Codes.missingEtp },
            },
        );
    }
    const period = durationNs(periodNode);
    if (periodNode && period.ok && period.value <= 0n) {
        accept('error', `The period of '${component.name}' must be positive.`, {
            node: periodNode,
            data: { code: Codes.nonPositivePeriod },
        });
    }
    const offsetNode = componentOffset(component);
    const offset = durationNs(offsetNode);
    if (offsetNode && offset.ok && period.ok && period.value > 0n && offset.value >= period.value) {
        accept(
            'warning',
            `Offset ${readableNs(offset.value)} is not below the period ${readableNs(period.value)}; it acts as offset ${readableNs(offset.value % period.value)}.`,
            {
                node: offsetNode,
                data: { code: Codes.offsetNotBelowPeriod },
            },
        );
    }
    const etp = componentEtp(component);
    const span = etpSpan(etp);
    if (etp && span && period.ok && period.value > 0n && span.min > period.value) {
        accept(
            'warning',
            `Every execution of '${component.name}' takes at least ${readableNs(span.min)}, longer than its period ${readableNs(period.value)}: a job is still running when the next one is triggered.`,
            {
                node: etp,
                data: { code: Codes.etpExceedsPeriod },
            },
        );
    }
}

function checkPmf(pmf: PmfEtp, accept: ValidationAcceptor): void {
    if (pmf.entries.length === 0) {
        accept('error', 'A pmf needs at least one entry.', { node: pmf, data: { code: Codes.pmfSum } });
        return;
    }
    const seen = new Map<bigint, number>();
    pmf.entries.forEach((entry, index) => {
        // Exactly: 1e-400 is a positive probability although it is 0 as a float.
        const probability = parseDecimal(entry.probability);
        if (
            entry.probability !== undefined &&
            (!probability || !(probability.numerator > 0n && probability.numerator <= 10n ** BigInt(probability.scale)))
        ) {
            accept('error', `A probability must be in (0, 1], got ${entry.probability}.`, {
                node: entry,
                property: 'probability',
                data: { code: Codes.pmfProbability },
            });
        }
        const time = durationNs(entry.time);
        if (time.ok) {
            if (seen.has(time.value)) {
                accept(
                    'error',
                    `Time ${readableNs(time.value)} appears twice in this pmf (entries ${seen.get(time.value)! + 1} and ${index + 1}).`,
                    {
                        node: entry,
                        property: 'time',
                        data: { code: Codes.pmfDuplicateTime },
                    },
                );
            }
            seen.set(time.value, index);
        }
    });
    // The contract's rule (ir.schema.json#/$defs/PmfSumTolerance): each probability as the IR carries it (the
    // shortest decimal of its number), summed exactly (binary floats misjudge sums: 0.1 + 0.2 is
    // 0.30000000000000004), |sum - 1| <= tolerance. The backend checks the same numbers the same way.
    const sum = sumDecimals(pmf.entries.map(e => String(Number(e.probability))));
    if (sum) {
        const one = 10n ** BigInt(sum.scale);
        const difference = sum.numerator - one;
        const off = difference < 0n ? -difference : difference;
        const toleranceOne = 10n ** BigInt(PMF_TOLERANCE_EXACT.scale);
        if (off * toleranceOne > PMF_TOLERANCE_EXACT.numerator * one) {
            const shown = formatRatio(sum.numerator, one, sum.scale);
            const by = Number(formatRatio(difference, one, sum.scale));
            accept(
                'error',
                `The probabilities of this pmf sum to ${shown}, not 1 (off by ${by}; the tolerance is ${PMF_TOLERANCE}).`,
                {
                    node: pmf,
                    data: { code: Codes.pmfSum },
                },
            );
        }
    }
}

function checkUniform(uniform: UniformEtp, accept: ValidationAcceptor): void {
    const min = durationNs(uniform.min),
        max = durationNs(uniform.max);
    const step = uniform.step ? durationNs(uniform.step) : uniformDefaultStep(uniform);
    if (!min.ok || !max.ok || !step.ok) return;
    const minRange = uniform.min.$cstNode?.range;
    const maxRange = uniform.max.$cstNode?.range;
    const stepRange = uniform.step?.$cstNode?.range;
    // `min .. max` for an empty range; `min .. max step s` for a range that is not a whole number of steps.
    const between = (end: typeof minRange) =>
        minRange && end ? { range: { start: minRange.start, end: end.end } } : { property: 'kind' as const };
    if (min.value > max.value) {
        accept('error', `Empty range: ${readableNs(min.value)} is above ${readableNs(max.value)}.`, {
            node: uniform,
            ...between(maxRange),
            data: { code: Codes.uniformRange },
        });
    } else if (step.value <= 0n) {
        accept('error', 'The step of a uniform distribution must be positive.', {
            node: uniform.step ?? uniform,
            data: { code: Codes.uniformRange },
        });
    } else if ((max.value - min.value) % step.value !== 0n) {
        const implicit = uniform.step ? '' : ` (without 'step' the step is 1 ${uniform.min.unit})`;
        accept(
            'error',
            `The range ${readableNs(min.value)} .. ${readableNs(max.value)} is not a whole number of steps of ${readableNs(step.value)}${implicit}.`,
            {
                node: uniform,
                ...between(stepRange ?? maxRange),
                data: { code: Codes.uniformRange },
            },
        );
    }
}

/** Measurement files larger than this are not read while validating (the export still reads them). */
const HISTOGRAM_CHECK_LIMIT = 16 * 1024 * 1024;

interface HistogramFileCheck {
    readonly problem?: string;
    readonly columns?: string[];
}

/**
 * Parsed files by path, kept while their size and modification time stay the same (validation runs on every keystroke).
 */
const histogramCache = new Map<string, { stamp: string; column: string | undefined; result: HistogramFileCheck }>();

/** What the export will find in a measurement file: a problem, or nothing. Mirrors exportHistogram in ir-export.ts. */
export function checkHistogramFile(file: string, column: string | undefined): HistogramFileCheck | undefined {
    let stamp: string;
    try {
        const stat = statSync(file);
        if (!stat.isFile()) return { problem: `Measurement file ${file} is not a file` };
        if (stat.size > HISTOGRAM_CHECK_LIMIT) return {};
        stamp = `${stat.size}:${stat.mtimeMs}`;
    } catch {
        return undefined;
    }
    const cached = histogramCache.get(file);
    if (cached && cached.stamp === stamp && cached.column === column) return cached.result;
    let result: HistogramFileCheck;
    try {
        result = parseHistogramText(file, readMeasurementFile(file, HISTOGRAM_CHECK_LIMIT), column);
    } catch (error) {
        result = { problem: `Cannot read measurement file ${file}: ${(error as Error).message}` };
    }
    histogramCache.set(file, { stamp, column, result });
    return result;
}

function parseHistogramText(file: string, text: string, column: string | undefined): HistogramFileCheck {
    // Numbered lines without blanks and comments, as the export reads them.
    const lines = text
        .split(/\r?\n/)
        .map((line, index) => ({ line, number: index + 1 }))
        .filter(l => l.line.trim() !== '' && !l.line.startsWith('#'));
    let columnIndex = 0;
    if (column !== undefined) {
        const header = (lines.shift()?.line ?? '').split(',').map(h => h.trim());
        columnIndex = header.indexOf(column);
        if (columnIndex < 0)
            return {
                problem: `Measurement file ${file} has no column '${column}' (columns: ${quoteColumns(header)})`,
                columns: header,
            };
    }
    if (lines.length === 0) return { problem: `Measurement file ${file} holds no latencies` };
    for (const { line, number } of lines) {
        const cell = line.split(',')[columnIndex]?.trim() ?? '';
        const value = parseDecimal(cell);
        if (!value || value.numerator < 0n)
            return { problem: `${file}:${number}: ${quoteCell(cell)} is not a latency` };
    }
    return {};
}

function checkHistogram(histogram: HistogramEtp, accept: ValidationAcceptor): void {
    for (const option of histogram.options) {
        if (option.kind !== 'bin' || !option.bin) continue;
        const bin = durationNs(option.bin);
        if (bin.ok && bin.value <= 0n) {
            accept('error', 'A histogram bin must be positive.', {
                node: option.bin,
                data: { code: Codes.histogramOption },
            });
        }
    }
    const file = histogramPath(histogram);
    if (!file) {
        if (histogram.file !== undefined)
            accept('error', 'The histogram names no file.', {
                node: histogram,
                property: 'file',
                data: { code: Codes.histogramFile },
            });
        return;
    }
    const columnOption = histogram.options.find(o => o.kind === 'column');
    const column = columnOption?.column === undefined ? undefined : unquote(columnOption.column);
    const check = checkHistogramFile(file, column);
    if (!check) {
        accept('error', `Measurement file not found: ${file}.`, {
            node: histogram,
            property: 'file',
            data: { code: Codes.histogramFile },
        });
    } else if (check.problem) {
        if (check.columns && columnOption) {
            accept('error', check.problem + '.', {
                node: columnOption,
                property: 'column',
                data: { code: Codes.histogramFile },
            });
        } else {
            accept('error', check.problem + '.', {
                node: histogram,
                property: 'file',
                data: { code: Codes.histogramFile },
            });
        }
    }
}

/** The histogram's file, resolved against the directory of the .chain file. */
export function histogramPath(histogram: HistogramEtp): string | undefined {
    const raw = histogram.file === undefined ? undefined : unquote(histogram.file);
    if (!raw) return undefined;
    const uri = AstUtils.getDocument(histogram).uri;
    return uri.scheme === 'file' ? resolve(dirname(URI.parse(uri.toString()).fsPath), raw) : raw;
}

/** Above the backend's tree limit `analyze` refuses; the server's quick fix asks the backend for nearby periods. */
function checkCost(ptts: Ptts, accept: ValidationAcceptor): void {
    const timing = pttsTiming(ptts);
    if (!timing) return;
    const cost = pttsCost(timing);
    if (!cost.overTreeLimit) return;
    accept(
        'warning',
        `Exact analysis would build ${cost.trees} latency trees (hyper-period ${readableNs(cost.hyperperiod)}, ${cost.complete ? 'about' : 'at least'} ${cost.operations} operations by thesis eq. 5.15), more than the ${MAX_TREES} the analysis accepts: use nearby periods or the simulator.`,
        {
            node: ptts,
            property: 'name',
            data: { code: Codes.slowAnalysis },
        },
    );
}

export const pttsChecks: ValidationChecks<ChainAstType> = {
    Ptts: (ptts, accept) => {
        if (ptts.name === undefined) return; // a syntax error; its diagnostic says enough
        if (pttsComponents(ptts).length === 0) {
            accept('error', `PTTS chain '${ptts.name}' has no components.`, {
                node: ptts,
                property: 'name',
                data: { code: Codes.emptyPtts },
            });
        }
        const resolution = pttsResolution(ptts);
        const resolutionNs = durationNs(resolution);
        if (resolution && resolutionNs.ok && resolutionNs.value <= 0n) {
            accept('error', 'The time resolution must be positive.', {
                node: resolution,
                data: { code: Codes.nonPositiveResolution },
            });
        }
        checkCost(ptts, accept);
    },
    Component: checkComponent,
    PmfEtp: checkPmf,
    UniformEtp: checkUniform,
    HistogramEtp: checkHistogram,
    LatencyRequirement: (requirement, accept) => {
        const bound = durationNs(requirement.bound);
        if (requirement.bound && bound.ok && bound.value <= 0n) {
            accept('error', 'A latency bound must be positive.', {
                node: requirement.bound,
                data: { code: Codes.nonPositiveBound },
            });
        }
        if (requirement.percentile !== undefined) {
            const match = /^p(\d+(?:\.\d+)?)$/.exec(requirement.percentile);
            const q = match ? Number(match[1]) : NaN;
            if (!(q > 0 && q < 100)) {
                accept('error', `'${requirement.percentile}' is not a percentile; write p50, p99 or p99.9.`, {
                    node: requirement,
                    property: 'percentile',
                    data: { code: Codes.badPercentile },
                });
            }
        }
        if (requirement.probability) {
            const value = parseDecimal(requirement.probability.value);
            const p = value
                ? Number(value.numerator) / 10 ** value.scale / (requirement.probability.percent ? 100 : 1)
                : NaN;
            if (!(p > 0 && p <= 1)) {
                accept('error', `A probability must be in (0, 1] (or (0, 100] %).`, {
                    node: requirement.probability,
                    data: { code: Codes.badProbability },
                });
            }
        }
    },
    LossRequirement: (requirement, accept) => {
        const limit = Number(requirement.limit);
        if (!(limit > 0 && limit <= 1)) {
            accept('error', 'A loss limit is a probability in (0, 1].', {
                node: requirement,
                property: 'limit',
                data: { code: Codes.badProbability },
            });
        }
    },
};
