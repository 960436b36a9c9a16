/**
 * Server-side layout: ELK layered, left to right, ports on fixed sides (inputs west, outputs east), labels
 * stacked at the top inside their node. ElkLayoutEngine ignores layoutOptions on model elements, so all
 * options come from this configurator. The timeline view is positioned by its builder and skips ELK.
 */
import ElkConstructor from 'elkjs/lib/elk.bundled.js';
import type { SGraph, SModelIndex, SNode, SPort, SLabel, SModelRoot } from 'sprotty-protocol';
import { DefaultLayoutConfigurator, ElkLayoutEngine, type ElkFactory } from 'sprotty-elk/lib/elk-layout.js';
import type { IModelLayoutEngine } from 'sprotty-protocol/lib/diagram-services.js';
import { T, type ChainlabGraph } from './diagram-elements.js';

export class ChainlabLayoutConfigurator extends DefaultLayoutConfigurator {
    protected override graphOptions(_graph: SGraph): Record<string, string> {
        return {
            'org.eclipse.elk.algorithm': 'org.eclipse.elk.layered',
            'org.eclipse.elk.direction': 'RIGHT',
            'org.eclipse.elk.edgeRouting': 'ORTHOGONAL',
            'org.eclipse.elk.spacing.nodeNode': '30',
            'org.eclipse.elk.layered.spacing.nodeNodeBetweenLayers': '60',
            'org.eclipse.elk.spacing.edgeLabel': '4',
            'org.eclipse.elk.edgeLabels.placement': 'CENTER',
            'org.eclipse.elk.padding': '[top=20,left=20,bottom=20,right=20]',
        };
    }

    protected override nodeOptions(node: SNode): Record<string, string> {
        return {
            'org.eclipse.elk.portConstraints': 'FIXED_SIDE',
            'org.eclipse.elk.nodeLabels.placement': '[H_CENTER, V_TOP, INSIDE]',
            'org.eclipse.elk.portLabels.placement': '[INSIDE]',
            'org.eclipse.elk.nodeSize.constraints': '[NODE_LABELS, PORTS, PORT_LABELS, MINIMUM_SIZE]',
            'org.eclipse.elk.nodeSize.minimum': `(${node.size?.width ?? 90},${node.size?.height ?? 40})`,
            'org.eclipse.elk.spacing.labelNode': '6',
            'org.eclipse.elk.spacing.labelLabel': '2',
            'org.eclipse.elk.spacing.portPort': '14',
        };
    }

    protected override portOptions(port: SPort): Record<string, string> {
        return {
            'org.eclipse.elk.port.side': port.type === T.inPort ? 'WEST' : 'EAST',
            'org.eclipse.elk.port.borderOffset': '-5',
        };
    }

    protected override labelOptions(_label: SLabel, _index: SModelIndex): Record<string, string> | undefined {
        return undefined;
    }
}

export const elkFactory: ElkFactory = () => new ElkConstructor.default({ algorithms: ['layered'] });

export class ChainlabLayoutEngine implements IModelLayoutEngine {
    /** Made for the first diagram: starting ELK costs 60-130 ms that the language server's start need not wait for. */
    private elk?: ElkLayoutEngine;

    layout(model: SModelRoot): SModelRoot | Promise<SModelRoot> {
        const graph = model as ChainlabGraph;
        if (
            graph.view === 'timeline' ||
            graph.view === 'lanes' ||
            (graph.children ?? []).every(c => c.type === T.banner)
        )
            return model;
        this.elk ??= new ElkLayoutEngine(elkFactory, undefined, new ChainlabLayoutConfigurator());
        return this.elk.layout(model as SGraph);
    }
}
