/**
 * The same diagram container outside VS Code (bundled to dist/standalone.js): a page calls
 * `chainlabDiagram.show(model)` with a laid-out model from the language server. Used by the browser
 * tests and for looking at a diagram without an editor.
 */
import 'reflect-metadata';
import { ContainerModule } from 'inversify';
import { LocalModelSource, TYPES } from 'sprotty';
import type { SModelRoot } from 'sprotty-protocol';
import { createChainlabDiagramContainer } from './di.config.js';
import '../css/diagram.css';

const selected: string[] = [];

const local = new ContainerModule(bind => {
    bind(TYPES.ModelSource).to(LocalModelSource).inSingletonScope();
});

const container = createChainlabDiagramContainer('sprotty', local);
const source = container.get<LocalModelSource>(TYPES.ModelSource);

// Selections are what the diagram would send to the language server (which reveals the text).
const original = source.handle.bind(source);
source.handle = action => {
    if (action.kind === 'elementSelected') selected.push(...((action as unknown as { selectedElementsIDs: string[] }).selectedElementsIDs ?? []));
    return original(action);
};

(window as unknown as { chainlabDiagram: object }).chainlabDiagram = {
    show: (model: SModelRoot) => source.setModel(model),
    selected: () => [...selected],
};
