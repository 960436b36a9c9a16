/**
 * The Sprotty container of chainlab's diagrams: one view per element type the language server sends
 * (the type strings of language/src/diagram-server/diagram-elements.ts). Layout is done by the server (ELK),
 * so the client never measures.
 */
import 'reflect-metadata';
import { Container, ContainerModule } from 'inversify';
import {
    configureModelElement, configureViewerOptions, editLabelFeature, loadDefaultModules, PolylineEdgeView, SEdgeImpl,
    SLabelImpl, SNodeImpl, SPortImpl, TYPES,
} from 'sprotty';
import { configureDiagramEditing } from './diagram-editing.js';
import { BoxNodeView, ChainlabGraphImpl, ChainlabGraphView, ChainlabLabelView, PortView, SparklineImpl, SparklineView, TimelineNodeImpl, TimelineNodeView } from './views.js';

export function chainlabDiagramModule(baseDiv: string): ContainerModule {
    return new ContainerModule((bind, unbind, isBound, rebind) => {
        const context = { bind, unbind, isBound, rebind };
        configureModelElement(context, 'graph', ChainlabGraphImpl, ChainlabGraphView);
        for (const type of ['node:box', 'node:subbox', 'node:component', 'node:banner']) configureModelElement(context, type, SNodeImpl, BoxNodeView);
        for (const type of ['node:lane', 'node:step', 'node:trigger', 'node:interval']) configureModelElement(context, type, TimelineNodeImpl, TimelineNodeView);
        configureModelElement(context, 'port:in', SPortImpl, PortView);
        configureModelElement(context, 'port:out', SPortImpl, PortView);
        configureModelElement(context, 'edge', SEdgeImpl, PolylineEdgeView);
        configureModelElement(context, 'edge:dependency', SEdgeImpl, PolylineEdgeView);
        for (const type of ['label:heading', 'label:text', 'label:port', 'label:edge']) {
            configureModelElement(context, type, SLabelImpl, ChainlabLabelView, { disable: [editLabelFeature] });
        }
        configureModelElement(context, 'sparkline', SparklineImpl, SparklineView);
        // issue markers ('marker') come with sprotty's default modules
        configureDiagramEditing(context);
        configureViewerOptions(context, { needsClientLayout: false, needsServerLayout: true, baseDiv, hiddenDiv: `${baseDiv}_hidden` });
        void TYPES; // the model source is bound by the host (sprotty-vscode or the test page)
    });
}

export function createChainlabDiagramContainer(baseDiv: string, ...modules: ContainerModule[]): Container {
    const container = new Container();
    loadDefaultModules(container);
    container.load(chainlabDiagramModule(baseDiv), ...modules);
    return container;
}
