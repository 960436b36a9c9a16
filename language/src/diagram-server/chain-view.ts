/**
 * View 1, the box chain: one node per box instance with its typed ports on fixed sides, kernel and cost;
 * edges go port to port and carry the buffer size. Numbers come from the IR (the same values the backend
 * sees); the AST provides the structure and text locations, so a model whose IR does not export (unresolved
 * references while editing) is still drawn, without the numbers.
 */
import type { SModelElement } from 'sprotty-protocol';
import { isBox, isImageType, type Box, type Chain } from '../generated/ast.js';
import type { IrBox, IrModel } from '../ir/ir-types.js';
import { boxCost, boxPorts, boxSource, chainConnections, chainInstances } from '../dsl/model-util.js';
import { resolvedSchedule } from '../dsl/resolved-schedule.js';
import { formatBytes } from '../dsl/units.js';
import { edge, label, messageGraph, node, port, shortBytes, T, type ChainlabGraph } from './diagram-elements.js';
import { formatAsWritten } from './time-format.js';
import type { ViewContext } from './view-context.js';

type Connection = ReturnType<typeof chainConnections>[number];

/** The first connection at each `instance.port` end of the chain. */
function connectionsByPort(connections: readonly Connection[]): Map<string, Connection> {
    const uses = new Map<string, Connection>();
    for (const c of connections)
        for (const end of [c.from, c.to]) {
            const key = `${end.instance.$refText}.${end.port.$refText}`;
            if (!uses.has(key)) uses.set(key, c);
        }
    return uses;
}

export function chainView(ir: IrModel | undefined, chain: Chain, ctx: ViewContext): ChainlabGraph {
    const irChain = ir?.chains.find(c => c.name === chain.name);
    if (ir && !irChain) return messageGraph('chain', `chain ${chain.name} is not in the exported model`, chain.name);
    const boxes = new Map((ir?.boxes ?? []).map(b => [b.name, b]));
    const showPorts = ctx.options.showPorts ?? true;
    const showCosts = ctx.options.showCosts ?? true;
    const children: SModelElement[] = [];
    const schedule = resolvedSchedule(chain);
    const portIds = new Map<string, string>(); // `instance.port` → port id (a box's ports appear once per instance)
    const connections = chainConnections(chain);
    const uses = connectionsByPort(connections);

    for (const instance of chainInstances(chain)) {
        const box = boxes.get(instance.box.$refText);
        const id = ctx.id(instance.name, instance);
        const lines = [
            label(`${id}.name`, T.heading, instance.name),
            label(`${id}.kernel`, T.text, kernelText(instance.box.$refText, box)),
        ];
        if (showCosts && box)
            lines.push(
                label(
                    `${id}.cost`,
                    T.text,
                    costText(box, schedule.slicesOf(instance)?.rows.length ?? 1, instance.box.ref),
                ),
            );
        const n = node(id, T.box, lines, {
            name: instance.name,
            cssClasses: [`kernel-${box?.kernel.name ?? 'unknown'}`],
        });
        n.tooltip = box && ir ? boxTooltip(box, ir) : undefined;
        ctx.trace(n, instance);
        for (const p of instance.box.ref ? boxPorts(instance.box.ref) : []) {
            const portId = ctx.id(`${id}.${p.name}`, p);
            portIds.set(`${instance.name}.${p.name}`, portId);
            const sPort = port(
                portId,
                p.direction === 'in' ? T.inPort : T.outPort,
                showPorts ? `${p.name}: ${p.type.$refText}` : undefined,
                p.name,
            );
            // a click reveals the port's place in the chain, the connection that uses it (else its instance),
            // not the box type's declaration shared by every instance; its markers stay the declaration's
            ctx.trace(sPort, uses.get(`${instance.name}.${p.name}`) ?? instance, p);
            n.children!.push(sPort);
        }
        children.push(n);
    }
    // edges from the text (every connection that parsed), buffer sizes from the IR when it exported
    const bytes = new Map(
        (irChain?.connections ?? []).map(c => [
            `${c.from.instance}.${c.from.port}->${c.to.instance}.${c.to.port}`,
            c.bytes,
        ]),
    );
    // the usual buffer size goes without saying (it is in the popups): only sizes that differ from it are labelled
    const usual = mostCommon([...bytes.values()]);
    for (const c of connections) {
        const from = `${c.from.instance.$refText}.${c.from.port.$refText}`;
        const to = `${c.to.instance.$refText}.${c.to.port.$refText}`;
        const source = portIds.get(from);
        const target = portIds.get(to);
        if (!source || !target) continue; // an unresolved end: ELK would throw on a dangling edge
        const name = `${from}->${to}`;
        const size = bytes.get(name);
        const sizeLabel =
            size !== undefined && (size !== usual || connections.length === 1) ? shortBytes(size) : undefined;
        const e = edge(ctx.id(name, c), T.edge, source, target, sizeLabel);
        ctx.trace(e, c);
        children.push(e);
    }
    return {
        type: T.graph,
        id: 'root',
        view: 'chain',
        element: chain.name,
        palette: paletteOf(chain, ir),
        images: chain.$container.elements.filter(isImageType).map(i => i.name),
        children,
    };
}

/** The boxes an instance can be added of: the exported ones, else those declared in the file. */
function paletteOf(chain: Chain, ir: IrModel | undefined): string[] {
    if (ir) return ir.boxes.map(b => b.name);
    const model = chain.$container;
    return model.elements.filter(isBox).map(b => b.name);
}

function kernelText(boxName: string, box: IrBox | undefined): string {
    if (!box) return boxName;
    const args = box.kernel.args.length ? `(${box.kernel.args.join(', ')})` : '';
    return `${boxName} · ${box.kernel.name}${args}`;
}

/**
 * Cost and split of a box; `rows ×2` are the sub-boxes the plan makes of it (see resolvedSchedule). Times read in
 * the unit the source wrote (`cost 0.6 ms` is 0.6 ms, not 600 µs).
 */
function costText(box: IrBox, slices: number, source?: Box): string {
    const written = (source && (boxSource(source)?.period ?? boxCost(source)))?.unit;
    if (box.source_period_ns) return `every ${formatAsWritten(box.source_period_ns, written)}`;
    const split =
        box.split === 'rows'
            ? `rows ×${slices}, ${box.depends.kind === 'halo' ? `halo ${box.depends.halo_rows}` : box.depends.kind}`
            : 'not split';
    return `${box.cost_ns !== null ? formatAsWritten(box.cost_ns, written) : box.etp ? `etp ${box.etp.kind}` : 'no cost'} · ${split}`;
}

function boxTooltip(box: IrBox, ir: IrModel): string {
    const images = new Map(ir.images.map(i => [i.name, i]));
    const ports = box.ports.map(p => {
        const image = images.get(p.image);
        return `${p.direction} ${p.name}: ${p.image}${image ? ` (${image.width}×${image.height} ${image.pixel}, ${formatBytes(image.frame_bytes)})` : ''}`;
    });
    return [`box ${box.name}`, ...ports].join('\n');
}

/** The value that occurs most often (the first of equals); undefined for none. */
function mostCommon(values: number[]): number | undefined {
    const counts = new Map<number, number>();
    for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
    let best: number | undefined;
    for (const [v, n] of counts) if (best === undefined || n > counts.get(best)!) best = v;
    return best;
}
