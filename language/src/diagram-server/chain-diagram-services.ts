/** The .chain services with diagrams, as the language server (and the diagram tests) create them. */
import type { Module } from 'langium';
import type { DefaultSharedModuleContext } from 'langium/lsp';
import { SprottyDefaultModule, SprottySharedModule, type LangiumSprottySharedServices } from 'langium-sprotty';
import { createChainServices, type ChainServices } from '../dsl/chain-module.js';
import { ChainlabDiagramSharedModule, createDiagramModule, type ChainlabDiagramServices } from './diagram-module.js';
import type { PlanSource } from './plan-view.js';

/** `language`: further modules of the language server's composition (src/server/server-module.ts, start-up.ts). */
export function createChainDiagramServices(
    context: DefaultSharedModuleContext,
    plans: PlanSource,
    // modules of any services on top of these (Langium's own module types are this loose)
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    language: Array<Module<any, any>> = [],
): {
    shared: LangiumSprottySharedServices;
    Chain: ChainServices & ChainlabDiagramServices;
} {
    const { shared, Chain } = createChainServices(context, {
        shared: [SprottySharedModule, ChainlabDiagramSharedModule],
        language: [SprottyDefaultModule, createDiagramModule(plans), ...language],
    });
    return { shared: shared as LangiumSprottySharedServices, Chain: Chain as ChainServices & ChainlabDiagramServices };
}
