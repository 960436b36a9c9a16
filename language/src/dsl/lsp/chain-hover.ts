/**
 * Hover: the normalised meaning of what is under the cursor — exact values of
 * quantities (ns, bytes), frame and buffer sizes, slice sizes of split boxes,
 * kernel signatures, and for a ptts its hyper-period and the number of latency
 * trees. Works on declarations and on references alike (hovering `Gain` in
 * `g: Gain` describes the box).
 */
import { AstNodeHoverProvider, type LangiumServices } from 'langium/lsp';
import { formatDuration } from '@chainlab/contract';
import {
    AstUtils,
    CstUtils,
    GrammarAST,
    GrammarUtils,
    type AstNode,
    type LangiumDocument,
    type LeafCstNode,
    type MaybePromise,
} from 'langium';
import type { Hover, HoverParams } from 'vscode-languageserver';
import {
    isBox,
    isChain,
    isComponent,
    isConnection,
    isCoreSet,
    isDepends,
    isDuration,
    isImageType,
    isInstance,
    isKernel,
    isPlatform,
    isPort,
    isProbability,
    isPtts,
    isSize,
    isTarget,
    isThrottle,
    type Box,
    type Chain,
    type Duration,
    type Component,
    type Connection,
    type CoreSet,
    type Depends,
    type ImageType,
    type Instance,
    type Kernel,
    type Platform,
    type Port,
    type PortRef,
    type Probability,
    type Ptts,
    type Target,
    type Throttle,
} from '../../generated/ast.js';
import { KERNELS, PIXEL_TYPES, type KernelSpec } from '../kernels.js';
import { keywordMarkdown, typoMarkdown } from '../keyword-docs.js';
import { keywordTypoAt } from '../keyword-typos.js';
import { NAME_KEYWORD_RULE } from '../syntax-vocabulary.js';
import {
    boxCost,
    boxDepends,
    boxInputs,
    boxKernel,
    boxKernelName,
    boxOutputs,
    boxPorts,
    boxSplit,
    chainConnections,
    chainInstances,
    chainMemory,
    chainSchedule,
    componentEtp,
    componentOffset,
    componentPeriod,
    expandCoreSet,
    platformCaches,
    platformCores,
    platformSmt,
    pttsComponents,
    scheduleThreads,
    unquote,
} from '../model-util.js';
import { etpSpan, MAX_TREES, pttsCost, pttsTiming } from '../ptts-cost.js';
import { resolvedSchedule } from '../resolved-schedule.js';
import { durationNs, formatBytes, parseDecimal, readableNs, sizeBytes } from '../units.js';

/** A duration as the source wrote it, with its exact value: `0.8 ms (800000 ns)`, never `800 µs`. */
function writtenText(duration: Duration | undefined): string {
    const exact = durationNs(duration);
    if (!exact.ok || !duration) return '?';
    const written = `${duration.value} ${duration.unit === 'us' ? 'µs' : duration.unit}`;
    return duration.unit === 'ns' || exact.value === 0n ? written : `${written} (${exact.value} ns)`;
}

/**
 * A whole number as a BigInt; 0n for what a half-typed or absurd model holds (undefined, Infinity from a 400-digit
 * literal).
 */
const big = (n: number | undefined): bigint => (Number.isInteger(n) ? BigInt(n!) : 0n);

export function imageBytes(image: ImageType): bigint {
    return big(image.width) * big(image.height) * big(PIXEL_TYPES.get(image.pixel));
}

/** `gain(factor)`, `mul(scale?)`, `add`. */
export function kernelSignature(spec: KernelSpec): string {
    if (spec.params.length === 0) return spec.name;
    const optionalFrom = spec.params.length - (spec.optional ?? 0);
    return `${spec.name}(${spec.params.map((p, i) => `${p.name}${i >= optionalFrom ? '?' : ''}`).join(', ')})`;
}

function portCount([min, max]: readonly [number, number]): string {
    if (max >= Number.MAX_SAFE_INTEGER) return `${min} or more`;
    return min === max ? String(min) : `${min}..${max}`;
}

/** Signature, documentation and port shape of a kernel, as Markdown. */
export function describeKernelSpec(spec: KernelSpec): string {
    return [
        `**kernel ${kernelSignature(spec)}**`,
        spec.doc,
        `inputs: ${portCount(spec.inputs)}, outputs: ${portCount(spec.outputs)}`,
    ].join('\n\n');
}

function describeImage(image: ImageType): string {
    const pixel = PIXEL_TYPES.get(image.pixel);
    return (
        `**image ${image.name}**: ${image.width} × ${image.height} of ${image.pixel}` +
        (pixel ? ` (${pixel} B per pixel), ${formatBytes(imageBytes(image))} per frame` : ' (unknown pixel type)')
    );
}

function describeBox(box: Box): string {
    const kernelName = boxKernelName(box);
    const spec = kernelName ? KERNELS.get(kernelName) : undefined;
    const args = boxKernel(box)?.args ?? [];
    const lines = [`**box ${box.name}**: kernel ${kernelName ?? '(none)'}${args.length ? `(${args.join(', ')})` : ''}`];
    if (spec) lines.push(spec.doc);
    for (const port of boxPorts(box)) {
        const image = port.type?.ref;
        lines.push(
            `- ${port.direction} ${port.name}: ${image ? `${image.name}, ${formatBytes(imageBytes(image))}` : '?'}`,
        );
    }
    const depends = boxDepends(box);
    lines.push(
        `split ${boxSplit(box) ?? 'none'}${depends ? `, depends ${depends.dependency}${depends.halo !== undefined ? ` ${depends.halo} rows` : ''}` : ''}`,
    );
    if (durationNs(boxCost(box)).ok) lines.push(`cost ${writtenText(boxCost(box))}`);
    return lines.join('\n\n');
}

function describeKernel(kernel: Kernel): string | undefined {
    const spec = KERNELS.get(kernel.name);
    return spec ? describeKernelSpec(spec) : `**kernel ${kernel.name}**: unknown kernel`;
}

function describePort(port: Port): string {
    const image = port.type?.ref;
    const box = port.$container;
    return (
        `**${port.direction} ${port.name}** of box ${box?.name ?? '?'}: ` +
        (image
            ? `image ${image.name}, ${image.width} × ${image.height} of ${image.pixel}, ${formatBytes(imageBytes(image))} per frame`
            : 'unknown image type')
    );
}

function describeInstance(instance: Instance): string {
    const chain = instance.$container;
    const box = instance.box?.ref;
    if (!box) return `**${instance.name}**: unknown box`;
    const lines = [
        `**${instance.name}**: box ${box.name}${boxKernelName(box) ? `, kernel ${boxKernelName(box)}` : ''}`,
    ];
    const image = (boxOutputs(box)[0] ?? boxInputs(box)[0])?.type?.ref;
    const split = resolvedSchedule(chain).slicesOf(instance);
    if (image && split?.split) {
        const subBoxes = split.rows.length;
        const rows = split.rows.reduce((most, [start, end]) => Math.max(most, end - start), 0);
        const rowBytes = big(image.width) * big(PIXEL_TYPES.get(image.pixel));
        lines.push(
            `split into ${subBoxes} sub-box${subBoxes === 1 ? '' : 'es'} of up to ${rows} of ${image.height} rows: ${formatBytes(big(rows) * rowBytes)} of output each`,
        );
        if (split.depends === 'halo' && split.halo > 0 && split.reads.length > 0) {
            const read = split.reads.reduce((most, [start, end]) => Math.max(most, end - start), 0);
            lines.push(
                `each reads up to ${read} input rows (halo ${split.halo}): ${formatBytes(big(read) * rowBytes)}`,
            );
        }
    } else {
        lines.push('1 sub-box (not split)');
    }
    return lines.join('\n\n');
}

/** `d.img`; `?` for what a half-typed connection lacks (`d.img ->` has no target yet). */
function portRefText(ref: PortRef | undefined): string {
    return `${ref?.instance?.$refText ?? '?'}.${ref?.port?.$refText ?? '?'}`;
}

function connectionBytes(connection: Connection): { image?: ImageType; bytes: bigint } {
    const image = connection.from?.port?.ref?.type?.ref ?? connection.to?.port?.ref?.type?.ref;
    return { image, bytes: image ? imageBytes(image) : 0n };
}

function describeConnection(connection: Connection): string {
    const { image, bytes } = connectionBytes(connection);
    return (
        `**buffer ${portRefText(connection.from)} → ${portRefText(connection.to)}**: ` +
        (image ? `image ${image.name}, ${formatBytes(bytes)}` : 'unknown image type')
    );
}

function describeChain(chain: Chain): string {
    const connections = chainConnections(chain);
    let buffers = 0n;
    const bufferLines: string[] = [];
    for (const connection of connections) {
        const { image, bytes } = connectionBytes(connection);
        buffers += bytes;
        bufferLines.push(
            `- ${portRefText(connection.from)} → ${portRefText(connection.to)}: ${image ? formatBytes(bytes) : '?'}`,
        );
    }
    const schedule = chainSchedule(chain);
    const { heuristic, memory, threads, cores } = resolvedSchedule(chain);
    return [
        `**chain ${chain.name}**${chain.platform?.ref ? ` on ${chain.platform.ref.name}` : ''}: ${chainInstances(chain).length} boxes, ${connections.length} connections`,
        `buffers: ${formatBytes(buffers)} in total without reuse (memory ${memory}${chainMemory(chain) ? '' : ', the default'})`,
        ...bufferLines,
        `schedule ${heuristic}${schedule?.heuristic ? '' : ' (default)'}, ${threads} thread${threads === 1 ? '' : 's'}` +
            `${scheduleThreads(schedule) === undefined ? ' (one per core)' : ''}` +
            (cores.length ? `, cores ${cores.join(', ')}` : ''),
    ].join('\n\n');
}

function describePtts(ptts: Ptts): string {
    const timing = pttsTiming(ptts);
    if (!timing)
        return `**ptts ${ptts.name}**: ${pttsComponents(ptts).length} components; periods incomplete, no hyper-period`;
    const cost = pttsCost(timing);
    return [
        `**ptts ${ptts.name}**: ${timing.names.join(' → ')}`,
        // a computed quantity, not one written in the source: the one number format (923 s, not 923.1426 s)
        `hyper-period ${formatDuration(Number(cost.hyperperiod))} = lcm of the periods ${timing.periods.map(p => readableNs(p)).join(', ')}`,
        `${cost.trees} latency trees (roots) = hyper-period / period of ${timing.names[0]}`,
        `${cost.complete ? 'about' : 'at least'} ${cost.operations} operations for exact analysis (thesis eq. 5.15); time grid ${readableNs(cost.grid)}` +
            (cost.overTreeLimit ? ` — more than the ${MAX_TREES} latency trees the analysis accepts` : ''),
    ].join('\n\n');
}

function describeComponent(component: Component): string {
    const offset = componentOffset(component) ? writtenText(componentOffset(component)) : '0 ms';
    const etp = componentEtp(component);
    const span = etpSpan(etp);
    const ptts = component.$container;
    const components = ptts ? pttsComponents(ptts) : [];
    const position = components.indexOf(component);
    return [
        `**component ${component.name}**${position >= 0 ? ` (${position + 1} of ${components.length} in ptts ${ptts.name})` : ''}`,
        `period ${writtenText(componentPeriod(component))}, offset ${offset}`,
        etp
            ? `etp ${etp.kind}${span ? `: ${readableNs(span.min)} .. ${readableNs(span.max)}` : etp.kind === 'chain' ? ` ${etp.chain?.$refText ?? '?'} (the chain's latency distribution)` : ''}`
            : 'no etp',
    ].join('\n\n');
}

function describePlatform(platform: Platform): string {
    const lines = [
        `**platform ${platform.name}**: ${platformCores(platform) ?? '?'} cores${platformSmt(platform) ? `, SMT ${platformSmt(platform)}` : ''}`,
    ];
    for (const cache of platformCaches(platform)) {
        const bytes = sizeBytes(cache.size);
        lines.push(
            `- cache ${cache.level}: ${bytes.ok ? formatBytes(bytes.value) : '?'}${cache.shared ? ', shared' : ''}`,
        );
    }
    return lines.join('\n\n');
}

/** The text of a node with its durations normalised: `sample 100 us` → `sample 100 µs (100000 ns)`. */
function settingText(node: AstNode): string {
    const text = (node.$cstNode?.text.replace(/\s+/g, ' ').trim() ?? '').replace(/(\d) us\b/g, '$1 µs');
    const durations = AstUtils.streamAst(node).filter(isDuration).toArray();
    const exact = durations
        .map(d => durationNs(d))
        .filter(d => d.ok)
        .map(d => `${(d as { value: bigint }).value} ns`);
    return exact.length ? `${text} (${exact.join(', ')})` : text;
}

function describeThrottle(throttle: Throttle): string {
    const mode = throttle.mode;
    return [
        `**throttle ${throttle.name}**: ${mode?.kind ?? '?'}`,
        ...(mode?.settings ?? []).map(s => `- ${settingText(s)}`),
    ].join('\n\n');
}

function describeTarget(target: Target): string {
    const lines = [`**target ${target.name}**`];
    for (const setting of target.settings) {
        if (setting.kind === 'rt-cores' || setting.kind === 'be-cores') {
            lines.push(`- ${setting.kind}: ${describeCores(setting.cores)}`);
        } else if (setting.kind === 'ssh' && setting.ssh) {
            lines.push(`- ssh ${unquote(setting.ssh)}`);
        } else {
            lines.push(`- ${settingText(setting)}`);
        }
    }
    return lines.join('\n\n');
}

function describeCores(cores: CoreSet | undefined): string {
    const list = expandCoreSet(cores);
    return list.length ? `cores ${list.join(', ')} (${list.length})` : 'no cores';
}

function describeDepends(depends: Depends): string {
    switch (depends.dependency) {
        case 'pointwise':
            return '**depends pointwise**: each output row needs only the same input row; slices are independent';
        case 'halo':
            return `**depends halo ${depends.halo ?? '?'}**: each output row reads ${depends.halo ?? '?'} input rows above and below it`;
        case 'whole':
            return '**depends whole**: each output row may read the whole input frame';
        default:
            return '**depends none**: no data dependency between input and output rows';
    }
}

function describeProbability(probability: Probability): string | undefined {
    const value = parseDecimal(probability.value);
    if (!value) return undefined;
    const scale = probability.percent ? value.scale + 2 : value.scale;
    const digits = (value.numerator < 0n ? -value.numerator : value.numerator).toString().padStart(scale + 1, '0');
    const fraction = scale > 0 ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}`.replace(/\.?0+$/, '') : digits;
    return `probability ${fraction}`;
}

export class ChainHoverProvider extends AstNodeHoverProvider {
    constructor(protected readonly services: LangiumServices) {
        super(services);
    }

    override async getHoverContent(document: LangiumDocument, params: HoverParams): Promise<Hover | undefined> {
        try {
            return await this.computeHover(document, params);
        } catch {
            // Hover must never break the server, whatever the document looks like.
            return undefined;
        }
    }

    protected async computeHover(document: LangiumDocument, params: HoverParams): Promise<Hover | undefined> {
        const root = document.parseResult?.value?.$cstNode;
        if (!root) return undefined;
        const offset = document.textDocument.offsetAt(params.position);
        // A misspelt keyword: what it may mean, never whatever node the parser's recovery put around it.
        const typo = keywordTypoAt(document.parseResult, offset);
        if (typo) return markdown(typoMarkdown(typo.word, typo.keywords));
        const leaf = CstUtils.findLeafNodeAtOffset(root, offset);
        const special = leaf && !leaf.hidden ? this.leafHover(leaf) : undefined;
        if (special) return markdown(special);
        const declaration = await super.getHoverContent(document, params);
        if (declaration) return declaration;
        // The leading keyword of an element or member (`box`, `chain`, `component`) describes it too.
        if (leaf && !leaf.hidden && GrammarAST.isKeyword(leaf.grammarSource)) {
            const node = leaf.astNode;
            if (node.$cstNode && leaf.offset === node.$cstNode.offset) {
                const text = describe(node);
                if (text) return markdown(text);
            }
            const rule = AstUtils.getContainerOfType(leaf.grammarSource, GrammarAST.isParserRule)?.name;
            const meaning = rule === NAME_KEYWORD_RULE ? undefined : keywordMarkdown(leaf.text, rule);
            if (meaning) return markdown(meaning);
        }
        return undefined;
    }

    /** Hovers that depend on the token rather than on a declaration. */
    protected leafHover(leaf: LeafCstNode): string | undefined {
        const quantity = AstUtils.getContainerOfType(leaf.astNode, n => isDuration(n) || isSize(n));
        if (quantity && isDuration(quantity)) {
            const ns = durationNs(quantity);
            if (!ns.ok) return ns.reason;
            const written = `${quantity.value} ${quantity.unit}`.replace(/ us$/, ' µs');
            const readable = readableNs(ns.value);
            return [...new Set([written, readable, `${ns.value} ns`])].join(' = ');
        }
        if (quantity && isSize(quantity)) {
            const bytes = sizeBytes(quantity);
            if (!bytes.ok) return bytes.reason;
            const written = `${quantity.value} ${quantity.unit}`;
            return written === `${bytes.value} B` ? written : `${written} = ${bytes.value} B`;
        }
        const node = leaf.astNode;
        if (isConnection(node) && leaf.text === '->') return describeConnection(node);
        if (isProbability(node)) return describeProbability(node);
        const coreSet =
            AstUtils.getContainerOfType(node, isCoreSet) ??
            ('cores' in node && isCoreSet(node.cores) ? node.cores : undefined);
        if (coreSet) return describeCores(coreSet);
        if (isDepends(node)) return describeDepends(node);
        if (isImageType(node) && GrammarUtils.findAssignment(leaf)?.feature === 'pixel') {
            const bytes = PIXEL_TYPES.get(node.pixel);
            return bytes
                ? `pixel type ${node.pixel}: ${bytes} B per pixel`
                : `unknown pixel type ${node.pixel} (known: ${[...PIXEL_TYPES.keys()].join(', ')})`;
        }
        return undefined;
    }

    protected override getAstNodeHoverContent(node: AstNode): MaybePromise<Hover | undefined> {
        const text = this.markdownOf(node);
        return text ? markdown(text) : undefined;
    }

    /** The hover's Markdown of a declaration (also the diagrams' popups show it: one builder for both). */
    markdownOf(node: AstNode): string | undefined {
        const text = describe(node);
        if (!text) return undefined;
        const extra = this.supplement(node);
        return extra ? `${text}\n\n${extra}` : text;
    }

    /** What the language server knows beyond the text (e.g. the latest analysis of a ptts); none here. */
    protected supplement(_node: AstNode): string | undefined {
        return undefined;
    }
}

/** Markdown describing a declaration, or undefined for nodes without a description. */
export function describe(node: AstNode): string | undefined {
    if (isImageType(node)) return describeImage(node);
    if (isBox(node)) return describeBox(node);
    if (isKernel(node)) return describeKernel(node);
    if (isPort(node)) return describePort(node);
    if (isInstance(node)) return describeInstance(node);
    if (isChain(node)) return describeChain(node);
    if (isConnection(node)) return describeConnection(node);
    if (isPtts(node)) return describePtts(node);
    if (isComponent(node)) return describeComponent(node);
    if (isPlatform(node)) return describePlatform(node);
    if (isThrottle(node)) return describeThrottle(node);
    if (isTarget(node)) return describeTarget(node);
    return undefined;
}

function markdown(value: string): Hover {
    return { contents: { kind: 'markdown', value } };
}
