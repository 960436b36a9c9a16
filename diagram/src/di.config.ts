/**
 * The Sprotty container of chainlab's diagrams: one view per element type the language server sends
 * (the contract's DIAGRAM_ELEMENT_TYPES, contract/schemas/diagram.schema.json). Layout is done by the server (ELK),
 * so the client never measures.
 */
import 'reflect-metadata';
import { Container, ContainerModule } from 'inversify';
import { DIAGRAM_ELEMENT_TYPES as T } from '@chainlab/contract';
import {
    configureCommand,
    configureCommandStackOptions,
    configureModelElement,
    configureViewerOptions,
    editLabelFeature,
    loadDefaultModules,
    SEdgeImpl,
    SLabelImpl,
    SNodeImpl,
    SPortImpl,
    TYPES,
    ScrollMouseListener,
    updateModule,
    ZoomMouseListener,
} from 'sprotty';
import { configureDiagramEditing } from './diagram-editing.js';
import { DirectedEdgeView } from './edge-views.js';
import { chainlabLanesModule } from './lanes-module.js';
import { SizeAwareUpdateModelCommand } from './update-model.js';
import {
    BoxNodeView,
    ChainlabGraphImpl,
    ChainlabGraphView,
    ChainlabLabelView,
    PortView,
    SparklineImpl,
    SparklineView,
    TimelineNodeImpl,
    TimelineNodeView,
} from './views.js';
import { ChainlabScrollMouseListener, MinimapMouseListener } from './zoom/minimap.js';
import { ZOOM_LIMITS } from './zoom/viewport-math.js';
import { ChainlabZoomCommand, ChainlabZoomMouseListener } from './zoom/zoom-commands.js';

export function chainlabDiagramModule(baseDiv: string): ContainerModule {
    return new ContainerModule((bind, unbind, isBound, rebind) => {
        const context = { bind, unbind, isBound, rebind };
        configureModelElement(context, T.graph, ChainlabGraphImpl, ChainlabGraphView);
        for (const type of [T.box, T.subBox, T.component, T.banner])
            configureModelElement(context, type, SNodeImpl, BoxNodeView);
        for (const type of [T.step, T.trigger])
            // lanes and intervals: lanes-module.ts
            configureModelElement(context, type, TimelineNodeImpl, TimelineNodeView);
        configureModelElement(context, T.inPort, SPortImpl, PortView);
        configureModelElement(context, T.outPort, SPortImpl, PortView);
        configureModelElement(context, T.edge, SEdgeImpl, DirectedEdgeView);
        configureModelElement(context, T.dependency, SEdgeImpl, DirectedEdgeView);
        for (const type of [T.heading, T.text, T.portLabel, T.edgeLabel]) {
            configureModelElement(context, type, SLabelImpl, ChainlabLabelView, { disable: [editLabelFeature] });
        }
        configureModelElement(context, T.sparkline, SparklineImpl, SparklineView);
        // issue markers ('marker') come with sprotty's default modules
        configureDiagramEditing(context);
        configureCommand(context, ChainlabZoomCommand);
        configureCommand(context, SizeAwareUpdateModelCommand); // replaces sprotty's updateModule
        rebind(ZoomMouseListener).to(ChainlabZoomMouseListener).inSingletonScope();
        rebind(ScrollMouseListener).to(ChainlabScrollMouseListener).inSingletonScope();
        bind(MinimapMouseListener).toSelf().inSingletonScope();
        bind(TYPES.MouseListener).toService(MinimapMouseListener);
        // a text edit's new diagram morphs in 100 ms, not sprotty's 250: the edit → diagram target is 300 ms
        configureCommandStackOptions(context, { defaultDuration: 100 });
        configureViewerOptions(context, {
            needsClientLayout: false,
            needsServerLayout: true,
            baseDiv,
            hiddenDiv: `${baseDiv}_hidden`,
            // zooming out past readable text shows the smart-zoom summary (zoom/summary-label.tsx)
            zoomLimits: ZOOM_LIMITS,
        });
        // the model source is bound by the host (sprotty-vscode or the test page)
    });
}

export function createChainlabDiagramContainer(baseDiv: string, ...modules: ContainerModule[]): Container {
    const container = new Container();
    loadDefaultModules(container, { exclude: [updateModule] });
    container.load(chainlabDiagramModule(baseDiv), chainlabLanesModule, ...modules);
    return container;
}
