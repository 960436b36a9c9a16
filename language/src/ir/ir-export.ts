/**
 * Model → IR. A pure function of a validated model (plus a reader for
 * measurement files); defaults are resolved here so the backend never guesses.
 */
import type { AstNode } from 'langium';
import type {
    Box,
    Chain,
    Etp,
    ImageType,
    Model,
    Platform,
    Ptts,
    Requirement,
    Target,
    Threshold,
    Throttle,
} from '../generated/ast.js';
import {
    isBox,
    isBudgetValue,
    isChain,
    isCounterSetting,
    isDutyCycleValue,
    isImageType,
    isMechanismSetting,
    isPlatform,
    isPtts,
    isTarget,
    isThrottle,
} from '../generated/ast.js';
import { PIXEL_TYPES } from '../dsl/kernels.js';
import {
    boxCost,
    boxEtp,
    boxKernel,
    boxKernelName,
    boxPorts,
    boxSource,
    boxSplit,
    chainConnections,
    chainInstances,
    chainIterations,
    chainRequirements,
    componentEtp,
    componentOffset,
    componentPeriod,
    expandCoreSet,
    platformCaches,
    platformCores,
    platformSmt,
    pttsComponents,
    pttsOrder,
    pttsRequirements,
    pttsResolution,
    targetSetting,
    unquote,
} from '../dsl/model-util.js';

const optionalUnquote = (s: string | undefined) => (s === undefined ? undefined : unquote(s));
import { uniformDefaultStep } from '../dsl/ptts-cost.js';
import { resolvedSchedule } from '../dsl/resolved-schedule.js';
import { haloRows, rowDependency } from '../dsl/row-slices.js';
import { durationNs, NS_PER_UNIT, parseDecimal, sizeBytes, type ExactDecimal } from '../dsl/units.js';
import type {
    IrBox,
    IrChain,
    IrEtp,
    IrImage,
    IrLoc,
    IrModel,
    IrPlatform,
    IrPtts,
    IrRequirement,
    IrTarget,
    IrThreshold,
    IrThrottle,
} from './ir-types.js';
import { irDouble, MAX_IR_NS } from './ir-numbers.js';
import { IR_VERSION } from './ir-types.js';
import { quoteCell, quoteColumns } from '../dsl/quote-data.js';

export const DEFAULTS = {
    dutyCycle: { sampleNs: 100_000, suspendNs: 900_000 },
    counter: 'llc-misses',
    mechanism: 'fifo-hold',
    sshPort: 22,
} as const;

export interface ExportContext {
    /** The path written into every `loc` (as the user named the file). */
    readonly file: string;
    /** Reads a measurement file for `etp histogram` (absolute path); returns its text. */
    readonly readFile: (path: string) => string;
    /** Resolves a histogram's file name against the model file. */
    readonly resolvePath: (path: string) => string;
}

export class IrExportError extends Error {
    constructor(
        message: string,
        readonly node: AstNode,
    ) {
        super(message);
    }
}

function loc(node: AstNode, ctx: ExportContext): IrLoc {
    const start = node.$cstNode?.range.start;
    return { file: ctx.file, line: (start?.line ?? 0) + 1, column: (start?.character ?? 0) + 1 };
}

/** Integer nanoseconds of a duration known to be valid (the model validated). */
function ns(duration: Parameters<typeof durationNs>[0], node: AstNode): number {
    const value = durationNs(duration);
    if (!value.ok) throw new IrExportError(value.reason, duration ?? node);
    return Number(value.value);
}

function decimal(text: string | number, node: AstNode): number {
    const value = parseDecimal(text);
    if (!value) throw new IrExportError(`'${text}' is not a number`, node);
    return double(value, 0, String(text), node);
}

/** The IR's double for an exact decimal (see ir-numbers.ts), or the refusal with the text that gave it. */
function double(value: ExactDecimal, shift: number, text: string, node: AstNode): number {
    const result = irDouble(value, shift);
    if (!result.ok) throw new IrExportError(`'${text}' ${result.reason}`, node);
    return result.value;
}

export function exportIr(model: Model, ctx: ExportContext): IrModel {
    const platforms = model.elements.filter(isPlatform);
    return {
        ir_version: IR_VERSION,
        source: ctx.file,
        platforms: platforms.map(p => exportPlatform(p, ctx)),
        images: model.elements.filter(isImageType).map(i => exportImage(i, ctx)),
        boxes: model.elements.filter(isBox).map(b => exportBox(b, ctx)),
        chains: model.elements.filter(isChain).map(c => exportChain(c, ctx)),
        ptts: model.elements.filter(isPtts).map(p => exportPtts(p, ctx)),
        throttles: model.elements.filter(isThrottle).map(t => exportThrottle(t, ctx)),
        targets: model.elements.filter(isTarget).map(t => exportTarget(t, ctx)),
    };
}

function exportPlatform(platform: Platform, ctx: ExportContext): IrPlatform {
    const smt = platformSmt(platform);
    return {
        name: platform.name,
        loc: loc(platform, ctx),
        cores: platformCores(platform) ?? 1,
        smt: smt === undefined ? null : smt === 'on',
        caches: platformCaches(platform).map(c => {
            const bytes = sizeBytes(c.size);
            return { level: c.level, size_bytes: bytes.ok ? Number(bytes.value) : 0, shared: c.shared };
        }),
    };
}

function exportImage(image: ImageType, ctx: ExportContext): IrImage {
    const pixelBytes = PIXEL_TYPES.get(image.pixel) ?? 0;
    return {
        name: image.name,
        loc: loc(image, ctx),
        width: image.width,
        height: image.height,
        pixel: image.pixel as IrImage['pixel'],
        pixel_bytes: pixelBytes,
        frame_bytes: image.width * image.height * pixelBytes,
    };
}

function exportBox(box: Box, ctx: ExportContext): IrBox {
    const kernelName = boxKernelName(box) ?? 'copy';
    const split = boxSplit(box) === 'rows' ? 'rows' : 'none';
    const args = (boxKernel(box)?.args ?? []).map(a => decimal(a, box));
    const cost = boxCost(box);
    const etp = boxEtp(box);
    const period = boxSource(box)?.period;
    return {
        name: box.name,
        loc: loc(box, ctx),
        kernel: { name: kernelName as IrBox['kernel']['name'], args },
        ports: boxPorts(box).map(p => ({
            name: p.name,
            direction: p.direction,
            image: p.type?.ref?.name ?? p.type.$refText,
            loc: loc(p, ctx),
        })),
        split,
        depends: { kind: rowDependency(box), halo_rows: haloRows(box) },
        cost_ns: cost ? ns(cost, box) : null,
        etp: etp ? exportEtp(etp, ctx) : null,
        source_period_ns: period ? ns(period, box) : null,
    };
}

function exportChain(chain: Chain, ctx: ExportContext): IrChain {
    const { heuristic, memory, threads, cores } = resolvedSchedule(chain);
    return {
        name: chain.name,
        loc: loc(chain, ctx),
        platform: chain.platform?.ref?.name ?? null,
        instances: chainInstances(chain).map(i => ({
            name: i.name,
            box: i.box?.ref?.name ?? i.box.$refText,
            loc: loc(i, ctx),
        })),
        connections: chainConnections(chain).map(c => {
            const image = c.from.port?.ref?.type?.ref;
            return {
                from: { instance: c.from.instance.$refText, port: c.from.port.$refText },
                to: { instance: c.to.instance.$refText, port: c.to.port.$refText },
                image: image?.name ?? '?',
                bytes: image ? image.width * image.height * (PIXEL_TYPES.get(image.pixel) ?? 0) : 0,
                loc: loc(c, ctx),
            };
        }),
        schedule: { heuristic: heuristic as IrChain['schedule']['heuristic'], threads, cores },
        memory: memory as IrChain['memory'],
        iterations: chainIterations(chain) ?? null,
        requirements: chainRequirements(chain).map(r => exportRequirement(r, ctx)),
    };
}

function exportPtts(ptts: Ptts, ctx: ExportContext): IrPtts {
    const resolution = pttsResolution(ptts);
    return {
        name: ptts.name,
        loc: loc(ptts, ctx),
        order: pttsOrder(ptts) as IrPtts['order'],
        resolution_ns: resolution ? ns(resolution, ptts) : null,
        components: pttsComponents(ptts).map(c => {
            const offset = componentOffset(c);
            const etp = componentEtp(c);
            if (!etp) throw new IrExportError(`component '${c.name}' has no etp`, c);
            return {
                name: c.name,
                loc: loc(c, ctx),
                period_ns: ns(componentPeriod(c), c),
                offset_ns: offset ? ns(offset, c) : 0,
                etp: exportEtp(etp, ctx),
            };
        }),
        requirements: pttsRequirements(ptts).map(r => exportRequirement(r, ctx)),
    };
}

export function exportEtp(etp: Etp, ctx: ExportContext): IrEtp {
    switch (etp.kind) {
        case 'point':
            return { kind: 'point', value_ns: ns(etp.value, etp) };
        case 'uniform': {
            const step = etp.step ? durationNs(etp.step) : uniformDefaultStep(etp);
            return {
                kind: 'uniform',
                min_ns: ns(etp.min, etp),
                max_ns: ns(etp.max, etp),
                step_ns: step.ok ? Number(step.value) : 1,
            };
        }
        case 'pmf':
            return {
                kind: 'pmf',
                points: etp.entries.map(e => [ns(e.time, e), decimal(e.probability, e)] as [number, number]),
            };
        case 'histogram':
            return exportHistogram(etp, ctx);
        case 'chain':
            return { kind: 'chain', chain: etp.chain.$refText };
    }
}

/**
 * A measurement file as a pmf: one latency per line (or a CSV column), in
 * `unit` (default ms), binned to `bin` (default: the finest whole ns).
 */
function exportHistogram(etp: Extract<Etp, { kind: 'histogram' }>, ctx: ExportContext): IrEtp {
    const file = ctx.resolvePath(unquote(etp.file));
    const option = (kind: string) => etp.options.find(o => o.kind === kind);
    const unit = option('unit')?.unit ?? 'ms';
    const binNode = option('bin')?.bin;
    const bin = binNode ? BigInt(ns(binNode, etp)) : 1n;
    const column = (c => (c === undefined ? undefined : unquote(c)))(option('column')?.column);
    let text: string;
    try {
        text = ctx.readFile(file);
    } catch (error) {
        throw new IrExportError(`cannot read measurement file ${file}: ${(error as Error).message}`, etp);
    }
    const lines = text.split(/\r?\n/).filter(l => l.trim() !== '' && !l.startsWith('#'));
    let columnIndex = 0;
    if (column !== undefined) {
        const header = (lines.shift() ?? '').split(',').map(h => h.trim());
        columnIndex = header.indexOf(column);
        if (columnIndex < 0)
            throw new IrExportError(
                `measurement file ${file} has no column '${column}' (columns: ${quoteColumns(header)})`,
                etp,
            );
    }
    const counts = new Map<bigint, number>();
    lines.forEach((line, index) => {
        const cell = line.split(',')[columnIndex]?.trim() ?? '';
        const value = parseDecimal(cell);
        if (!value || value.numerator < 0n)
            throw new IrExportError(`${file}:${index + 1}: ${quoteCell(cell)} is not a latency`, etp);
        // Round to the nearest ns, then to the nearest bin: measurements carry no exactness to keep.
        const scaled =
            (value.numerator * NS_PER_UNIT[unit] * 2n + 10n ** BigInt(value.scale)) / (2n * 10n ** BigInt(value.scale));
        const binned = ((scaled + bin / 2n) / bin) * bin;
        if (binned > MAX_IR_NS)
            throw new IrExportError(
                `${file}:${index + 1}: ${quoteCell(cell)} is longer than 2^53 - 1 ns, the longest time the IR carries exactly`,
                etp,
            );
        counts.set(binned, (counts.get(binned) ?? 0) + 1);
    });
    if (lines.length === 0) throw new IrExportError(`measurement file ${file} holds no latencies`, etp);
    const points = [...counts.entries()]
        .sort((a, b) => (a[0] < b[0] ? -1 : 1))
        .map(([t, n]) => [Number(t), n / lines.length] as [number, number]);
    return { kind: 'histogram', file, samples: lines.length, points };
}

function exportRequirement(requirement: Requirement, ctx: ExportContext): IrRequirement {
    const where = loc(requirement, ctx);
    if (requirement.kind === 'loss') {
        return { kind: 'loss', op: requirement.op, limit: decimal(requirement.limit, requirement), loc: where };
    }
    const bound = ns(requirement.bound, requirement);
    if (requirement.percentile !== undefined) {
        return {
            kind: 'percentile',
            percentile: Number(requirement.percentile.slice(1)),
            op: requirement.op,
            bound_ns: bound,
            loc: where,
        };
    }
    const text = String(requirement.probability!.value);
    const exact = parseDecimal(text);
    if (!exact) throw new IrExportError(`'${text}' is not a number`, requirement);
    // 99.9 % is 999/1000 exactly: shift the decimal point instead of dividing a float.
    const probability = double(exact, requirement.probability!.percent ? 2 : 0, text, requirement);
    return { kind: 'deadline', op: requirement.op, bound_ns: bound, probability, loc: where };
}

function threshold(value: Threshold | undefined): IrThreshold | null {
    return value ? { value: Number(value.value), unit: value.unit } : null;
}

function exportThrottle(throttle: Throttle, ctx: ExportContext): IrThrottle {
    const mode = throttle.mode;
    const settings = mode.settings;
    const counter = settings.find(isCounterSetting);
    const mechanism = settings.find(isMechanismSetting)?.mechanism ?? DEFAULTS.mechanism;
    const base = {
        name: throttle.name,
        loc: loc(throttle, ctx),
        mode: mode.kind,
        counter: {
            event: counter?.event ?? (counter?.raw ? null : DEFAULTS.counter),
            raw: counter?.raw === undefined ? null : unquote(counter.raw),
        },
        mechanism,
    };
    if (mode.kind === 'duty-cycle') {
        const values = settings.filter(isDutyCycleValue);
        const get = (kind: string) => values.find(v => v.kind === kind);
        return {
            ...base,
            duty_cycle: {
                sample_ns: get('sample')?.sample ? ns(get('sample')!.sample, throttle) : DEFAULTS.dutyCycle.sampleNs,
                suspend_ns: get('suspend')?.suspend
                    ? ns(get('suspend')!.suspend, throttle)
                    : DEFAULTS.dutyCycle.suspendNs,
                proportional: values.some(v => v.kind === 'proportional'),
                threshold: threshold(get('threshold')?.threshold),
                read_threshold: threshold(get('read-threshold')?.threshold),
                write_threshold: threshold(get('write-threshold')?.threshold),
            },
            budget: null,
        };
    }
    const values = settings.filter(isBudgetValue);
    const get = (kind: string) => values.find(v => v.kind === kind);
    const misses = get('misses');
    return {
        ...base,
        duty_cycle: null,
        budget: {
            period_ns: ns(get('period')?.period, throttle),
            misses: misses?.misses ?? 1,
            per_core: !misses?.shared,
            distribution: get('distribution')?.distribution ?? 'static',
        },
    };
}

function exportTarget(target: Target, ctx: ExportContext): IrTarget {
    const ssh = optionalUnquote(targetSetting(target, 'ssh')?.ssh);
    const [user, host] = ssh?.includes('@')
        ? [ssh.slice(0, ssh.indexOf('@')), ssh.slice(ssh.indexOf('@') + 1)]
        : [null, ssh ?? null];
    const workload = targetSetting(target, 'workload');
    return {
        name: target.name,
        loc: loc(target, ctx),
        kind: ssh !== undefined ? 'ssh' : 'local',
        user,
        host,
        port: targetSetting(target, 'port')?.port ?? DEFAULTS.sshPort,
        key: optionalUnquote(targetSetting(target, 'key')?.key) ?? null,
        root: optionalUnquote(targetSetting(target, 'root')?.root) ?? null,
        platform: targetSetting(target, 'platform')?.platform?.ref?.name ?? null,
        rt_cores: expandCoreSet(targetSetting(target, 'rt-cores')?.cores),
        be_cores: expandCoreSet(targetSetting(target, 'be-cores')?.cores),
        throttle: targetSetting(target, 'throttle')?.throttle?.ref?.name ?? null,
        workload: workload
            ? workload.hog
                ? { kind: 'hog' }
                : { kind: 'command', command: unquote(workload.command!) }
            : null,
    };
}
