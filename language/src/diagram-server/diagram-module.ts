/**
 * The diagram services of the .chain language (langium-sprotty): generator, server-side ELK layout, the
 * latest analysis results (also in the hover), the latest run's measured sub-boxes and the plan source. Added to
 * the language by createChainServices.
 */
import type { Module } from 'langium';
import type { LangiumServices } from 'langium/lsp';
import type { LangiumSprottyServices, LangiumSprottySharedServices, SprottyDiagramServices } from 'langium-sprotty';
import type { DiagramServices } from 'sprotty-protocol';
import { AnalysisHoverProvider } from './analysis-hover.js';
import { AnalysisResults } from './analysis-results.js';
import { ChainlabDiagramGenerator } from './chainlab-diagram-generator.js';
import { ChainlabDiagramServerManager } from './chainlab-diagram-server-manager.js';
import { ChainlabLayoutEngine } from './chainlab-layout.js';
import { MeasuredTaskStore } from './measured-tasks.js';
import type { PlanSource } from './plan-view.js';

export type ChainlabDiagramAdded = {
    diagram: DiagramServices & {
        AnalysisResults: AnalysisResults;
        MeasuredTasks: MeasuredTaskStore;
        PlanSource: PlanSource;
    };
};

export type ChainlabDiagramServices = LangiumSprottyServices & ChainlabDiagramAdded;

export function createDiagramModule(
    plans: PlanSource,
): Module<
    ChainlabDiagramServices,
    SprottyDiagramServices & ChainlabDiagramAdded & { lsp: Pick<LangiumServices['lsp'], 'HoverProvider'> }
> {
    return {
        diagram: {
            DiagramGenerator: services => new ChainlabDiagramGenerator(services),
            ModelLayoutEngine: () => new ChainlabLayoutEngine(),
            AnalysisResults: () => new AnalysisResults(),
            MeasuredTasks: () => new MeasuredTaskStore(),
            PlanSource: () => plans,
        },
        lsp: {
            HoverProvider: services => new AnalysisHoverProvider(services, services.diagram.AnalysisResults),
        },
    };
}

export const ChainlabDiagramSharedModule: Module<
    LangiumSprottySharedServices,
    { diagram: { DiagramServerManager: ChainlabDiagramServerManager } }
> = {
    diagram: {
        DiagramServerManager: services => new ChainlabDiagramServerManager(services),
    },
};
