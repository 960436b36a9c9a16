/**
 * Read access to the settings of model elements. Settings are written in any
 * order as separate nodes; these helpers pick the first of each kind (the
 * validator reports repeats).
 */
import type { AstNode } from 'langium';
import {
    isCache,
    isComponent,
    isConnection,
    isCoresOption,
    isCoresSetting,
    isCostSetting,
    isDepends,
    isEtpSetting,
    isInstance,
    isIterationsSetting,
    isKernel,
    isMemorySetting,
    isOffsetSetting,
    isOrderSetting,
    isPeriodSetting,
    isPort,
    isRequirement,
    isResolutionSetting,
    isSchedule,
    isSmtSetting,
    isSourceSpec,
    isSplitSetting,
    isThreadsOption,
    type Box,
    type Cache,
    type Chain,
    type Component,
    type Connection,
    type CoreSet,
    type Depends,
    type Etp,
    type Instance,
    type IterationsSetting,
    type Kernel,
    type Platform,
    type Port,
    type Ptts,
    type Requirement,
    type Schedule,
    type SourceSpec,
    type Target,
    type TargetSetting,
    type Duration,
} from '../generated/ast.js';

function first<T extends AstNode>(items: readonly AstNode[], guard: (n: unknown) => n is T): T | undefined {
    for (const item of items) if (guard(item)) return item;
    return undefined;
}

/** All settings of one kind, to report repeats. */
export function repeated<T extends { kind?: string }>(items: readonly T[]): T[] {
    const seen = new Set<string>();
    const repeats: T[] = [];
    for (const item of items) {
        const kind = item.kind;
        if (!kind) continue;
        if (seen.has(kind)) repeats.push(item);
        seen.add(kind);
    }
    return repeats;
}

// ---- platform
export const platformCores = (p: Platform): number | undefined => first(p.settings, isCoresSetting)?.cores;
export const platformSmt = (p: Platform): string | undefined => first(p.settings, isSmtSetting)?.smt;
export const platformCaches = (p: Platform): Cache[] => p.settings.filter(isCache);

// ---- boxes
export const boxPorts = (b: Box): Port[] => b.members.filter(isPort);
export const boxInputs = (b: Box): Port[] => boxPorts(b).filter(p => p.direction === 'in');
export const boxOutputs = (b: Box): Port[] => boxPorts(b).filter(p => p.direction === 'out');
export const boxKernel = (b: Box): Kernel | undefined => first(b.members, isKernel);
export const boxSource = (b: Box): SourceSpec | undefined => first(b.members, isSourceSpec);
export const boxSplit = (b: Box): string | undefined => first(b.members, isSplitSetting)?.split;
export const boxDepends = (b: Box): Depends | undefined => first(b.members, isDepends);
export const boxCost = (b: Box): Duration | undefined => first(b.members, isCostSetting)?.cost;
export const boxEtp = (b: Box): Etp | undefined => first(b.members, isEtpSetting)?.etp;

/** The kernel's name: `source period X` means kernel source. */
export function boxKernelName(b: Box): string | undefined {
    return boxKernel(b)?.name ?? (boxSource(b) ? 'source' : undefined);
}

// ---- chains
export const chainInstances = (c: Chain): Instance[] => c.members.filter(isInstance);
export const chainConnections = (c: Chain): Connection[] => c.members.filter(isConnection);
export const chainSchedule = (c: Chain): Schedule | undefined => first(c.members, isSchedule);
export const chainMemory = (c: Chain): string | undefined => first(c.members, isMemorySetting)?.memory;
export const chainIterations = (c: Chain): number | undefined => first(c.members, isIterationsSetting)?.iterations;
export const chainIterationsSetting = (c: Chain): IterationsSetting | undefined =>
    first(c.members, isIterationsSetting);
export const chainRequirements = (c: Chain): Requirement[] => c.members.filter(isRequirement);
export const scheduleThreads = (s: Schedule | undefined): number | undefined =>
    s ? first(s.options, isThreadsOption)?.threads : undefined;
export const scheduleCores = (s: Schedule | undefined): CoreSet | undefined =>
    s ? first(s.options, isCoresOption)?.cores : undefined;

// ---- PTTS
export const pttsComponents = (p: Ptts): Component[] => p.members.filter(isComponent);
export const pttsRequirements = (p: Ptts): Requirement[] => p.members.filter(isRequirement);
export const pttsResolution = (p: Ptts): Duration | undefined => first(p.members, isResolutionSetting)?.resolution;
export const pttsOrder = (p: Ptts): string => first(p.members, isOrderSetting)?.order ?? 'production-first';
export const componentPeriod = (c: Component): Duration | undefined => first(c.settings, isPeriodSetting)?.period;
export const componentOffset = (c: Component): Duration | undefined => first(c.settings, isOffsetSetting)?.offset;
export const componentEtp = (c: Component): Etp | undefined => first(c.settings, isEtpSetting)?.etp;

// ---- targets
export function targetSetting(t: Target, kind: string): TargetSetting | undefined {
    return t.settings.find(s => s.kind === kind);
}

/** Expands `0..3, 6` to [0, 1, 2, 3, 6] (ranges given backwards are empty, repeated cores appear once). */
export function expandCoreSet(cores: CoreSet | undefined): number[] {
    if (!cores) return [];
    // A core named twice counts once (the IR's core lists are sets). Past 2^53 `core++` no longer
    // changes the number, so unsafe integers end the range instead of repeating one core.
    const result = new Set<number>();
    for (const range of cores.ranges) {
        const last = range.last ?? range.first;
        for (let core = range.first; core <= last && result.size < 4096 && Number.isSafeInteger(core); core++)
            result.add(core);
    }
    return [...result];
}

/** The value of a STRING token: quotes removed, backslash escapes resolved. */
export function unquote(token: string): string {
    const body = token.length >= 2 && (token[0] === '"' || token[0] === "'") ? token.slice(1, -1) : token;
    return body.replace(
        /\\(.)/g,
        (_, c: string) => (({ n: '\n', t: '\t', r: '\r' }) as Record<string, string>)[c] ?? c,
    );
}
