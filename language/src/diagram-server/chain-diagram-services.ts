/** The .chain services with diagrams, as the language server (and the diagram tests) create them. */
import type { DefaultSharedModuleContext } from 'langium/lsp';
import { SprottyDefaultModule, SprottySharedModule, type LangiumSprottySharedServices } from 'langium-sprotty';
import { createChainServices, type ChainServices } from '../dsl/chain-module.js';
import { ChainlabDiagramSharedModule, createDiagramModule, type ChainlabDiagramServices } from './diagram-module.js';
import type { PlanSource } from './plan-view.js';

export function createChainDiagramServices(context: DefaultSharedModuleContext, plans: PlanSource): {
    shared: LangiumSprottySharedServices;
    Chain: ChainServices & ChainlabDiagramServices;
} {
    const { shared, Chain } = createChainServices(context, {
        shared: [SprottySharedModule, ChainlabDiagramSharedModule],
        language: [SprottyDefaultModule, createDiagramModule(plans)],
    });
    return { shared: shared as LangiumSprottySharedServices, Chain: Chain as ChainServices & ChainlabDiagramServices };
}
