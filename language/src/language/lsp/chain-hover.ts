/**
 * Hover: the normalised meaning of what is under the cursor — exact values of
 * quantities, frame and buffer sizes, slice sizes, and for a ptts its
 * hyper-period and the number of latency trees.
 */
import { AstNodeHoverProvider } from 'langium/lsp';
import { AstUtils, CstUtils, type AstNode, type LangiumDocument, type MaybePromise } from 'langium';
import type { Hover, HoverParams } from 'vscode-languageserver';
import {
    isBox, isChain, isComponent, isDuration, isImageType, isInstance, isPtts, isSize, isPlatform,
    type Box, type Chain, type Component, type ImageType, type Instance, type Ptts,
} from '../../generated/ast.js';
import { KERNELS, PIXEL_TYPES } from '../kernels.js';
import {
    boxCost, boxDepends, boxKernel, boxKernelName, boxPorts, boxSplit, chainConnections, chainInstances, chainSchedule,
    componentEtp, componentOffset, componentPeriod, platformCores, scheduleThreads,
} from '../model-util.js';
import { etpSpan, pttsCost, pttsTiming } from '../ptts-cost.js';
import { durationNs, formatBytes, formatNs, sizeBytes } from '../units.js';

export function imageBytes(image: ImageType): bigint {
    return BigInt(image.width ?? 0) * BigInt(image.height ?? 0) * BigInt(PIXEL_TYPES.get(image.pixel) ?? 0);
}

function describeImage(image: ImageType): string {
    return `**image ${image.name}**: ${image.width} × ${image.height} of ${image.pixel}, ${formatBytes(imageBytes(image))} per frame`;
}

function describeBox(box: Box): string {
    const kernelName = boxKernelName(box);
    const spec = kernelName ? KERNELS.get(kernelName) : undefined;
    const lines = [`**box ${box.name}**: kernel ${kernelName ?? '(none)'}${boxKernel(box)?.args.length ? `(${boxKernel(box)!.args.join(', ')})` : ''}`];
    if (spec) lines.push(spec.doc);
    for (const port of boxPorts(box)) {
        const image = port.type?.ref;
        lines.push(`- ${port.direction} ${port.name}: ${image ? `${image.name}, ${formatBytes(imageBytes(image))}` : '?'}`);
    }
    const depends = boxDepends(box);
    lines.push(`split ${boxSplit(box) ?? 'none'}${depends ? `, depends ${depends.dependency}${depends.halo !== undefined ? ` ${depends.halo} rows` : ''}` : ''}`);
    const cost = durationNs(boxCost(box));
    if (cost.ok) lines.push(`cost ${formatNs(cost.value)} (${cost.value} ns)`);
    return lines.join('\n\n');
}

function describeInstance(instance: Instance): string {
    const chain = instance.$container as Chain;
    const box = instance.box?.ref;
    if (!box) return `**${instance.name}**`;
    const threads = scheduleThreads(chainSchedule(chain)) ?? (chain.platform?.ref ? platformCores(chain.platform.ref) : undefined) ?? 1;
    const image = boxPorts(box)[0]?.type?.ref;
    const lines = [`**${instance.name}**: box ${box.name}`];
    if (image && boxSplit(box) === 'rows') {
        const rows = Math.ceil(image.height / threads);
        lines.push(`${threads} sub-boxes of up to ${rows} rows (${formatBytes(BigInt(rows) * BigInt(image.width) * BigInt(PIXEL_TYPES.get(image.pixel) ?? 0))} of output each)`);
    } else {
        lines.push('1 sub-box (not split)');
    }
    return lines.join('\n\n');
}

function describeChain(chain: Chain): string {
    let buffers = 0n;
    for (const connection of chainConnections(chain)) {
        const image = connection.from.port?.ref?.type?.ref;
        if (image) buffers += imageBytes(image);
    }
    return [
        `**chain ${chain.name}**: ${chainInstances(chain).length} boxes, ${chainConnections(chain).length} connections`,
        `buffers: ${formatBytes(buffers)} in total without reuse`,
        `schedule ${chainSchedule(chain)?.heuristic ?? 'reduced (default)'} with ${scheduleThreads(chainSchedule(chain)) ?? 'one thread per core'}`,
    ].join('\n\n');
}

function describePtts(ptts: Ptts): string {
    const timing = pttsTiming(ptts);
    if (!timing) return `**ptts ${ptts.name}**: periods incomplete`;
    const cost = pttsCost(timing);
    return [
        `**ptts ${ptts.name}**: ${timing.names.join(' → ')}`,
        `hyper-period ${formatNs(cost.hyperperiod)}; ${cost.trees} latency trees (roots); about ${cost.operations} operations (thesis eq. 5.15); time grid ${formatNs(cost.grid)}`,
    ].join('\n\n');
}

function describeComponent(component: Component): string {
    const period = durationNs(componentPeriod(component));
    const offset = componentOffset(component) ? durationNs(componentOffset(component)) : { ok: true as const, value: 0n };
    const etp = componentEtp(component);
    const span = etpSpan(etp);
    return [
        `**component ${component.name}**`,
        `period ${period.ok ? `${formatNs(period.value)} (${period.value} ns)` : '?'}, offset ${offset.ok ? formatNs(offset.value) : '?'}`,
        etp ? `etp ${etp.kind}${span ? `: ${formatNs(span.min)} .. ${formatNs(span.max)}` : ''}` : 'no etp',
    ].join('\n\n');
}

export class ChainHoverProvider extends AstNodeHoverProvider {
    override getHoverContent(document: LangiumDocument, params: HoverParams): MaybePromise<Hover | undefined> {
        const root = document.parseResult.value.$cstNode;
        const offset = document.textDocument.offsetAt(params.position);
        const leaf = root ? CstUtils.findLeafNodeAtOffset(root, offset) : undefined;
        const quantity = leaf ? AstUtils.getContainerOfType(leaf.astNode, n => isDuration(n) || isSize(n)) : undefined;
        if (quantity && isDuration(quantity)) {
            const ns = durationNs(quantity);
            if (ns.ok) return markdown(`${formatNs(ns.value)} = ${ns.value} ns`);
        }
        if (quantity && isSize(quantity)) {
            const bytes = sizeBytes(quantity);
            if (bytes.ok) return markdown(formatBytes(bytes.value));
        }
        return super.getHoverContent(document, params);
    }

    protected override getAstNodeHoverContent(node: AstNode): MaybePromise<Hover | undefined> {
        const text = describe(node);
        return text ? markdown(text) : undefined;
    }
}

function describe(node: AstNode): string | undefined {
        if (isImageType(node)) return describeImage(node);
        if (isBox(node)) return describeBox(node);
        if (isInstance(node)) return describeInstance(node);
        if (isChain(node)) return describeChain(node);
        if (isPtts(node)) return describePtts(node);
        if (isComponent(node)) return describeComponent(node);
        if (isPlatform(node)) return `**platform ${node.name}**: ${platformCores(node) ?? '?'} cores`;
        return undefined;
}

function markdown(value: string): Hover {
    return { contents: { kind: 'markdown', value } };
}
