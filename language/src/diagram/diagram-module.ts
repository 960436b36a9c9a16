/**
 * The diagram services of the .chain language (langium-sprotty): generator, server-side ELK layout, the
 * latest analysis results and the plan source. Added to the language by createChainServices.
 */
import type { Module } from 'langium';
import type { LangiumSprottyServices, LangiumSprottySharedServices, SprottyDiagramServices } from 'langium-sprotty';
import type { DiagramServices } from 'sprotty-protocol';
import type { SharedBackend } from '../backend/shared-backend.js';
import { AnalysisResults } from './analysis-results.js';
import { ChainlabDiagramGenerator } from './chainlab-diagram-generator.js';
import { ChainlabDiagramServerManager } from './chainlab-diagram-server-manager.js';
import { ChainlabLayoutEngine } from './chainlab-layout.js';
import type { PlanJson, PlanSource } from './plan-view.js';

export type ChainlabDiagramAdded = {
    diagram: DiagramServices & { AnalysisResults: AnalysisResults; PlanSource: PlanSource };
};

export type ChainlabDiagramServices = LangiumSprottyServices & ChainlabDiagramAdded;

/** Plans through the backend's plan/make (the same method the CLI's `plan` uses). */
export function backendPlanSource(backend: SharedBackend): PlanSource {
    return {
        plan: (ir, chain, heuristic) => backend.client().request<PlanJson>('plan/make', { ir, chain, ...(heuristic ? { heuristic } : {}) }, { timeoutMs: 60_000 }),
    };
}

export function createDiagramModule(plans: PlanSource): Module<ChainlabDiagramServices, SprottyDiagramServices & ChainlabDiagramAdded> {
    return {
        diagram: {
            DiagramGenerator: services => new ChainlabDiagramGenerator(services),
            ModelLayoutEngine: () => new ChainlabLayoutEngine(),
            AnalysisResults: () => new AnalysisResults(),
            PlanSource: () => plans,
        },
    };
}

export const ChainlabDiagramSharedModule: Module<LangiumSprottySharedServices, { diagram: { DiagramServerManager: ChainlabDiagramServerManager } }> = {
    diagram: {
        DiagramServerManager: services => new ChainlabDiagramServerManager(services),
    },
};
