/**
 * Services for batch use (the CLI, the benchmark): the language without the
 * editor-only work. The reference index serves find-references and rename in
 * an editor; a one-shot check or export never asks it, and indexing every
 * reference of a 2,000-box chain costs about a tenth of its build.
 */
import { DefaultIndexManager, type DeepPartial, type LangiumDocument, type Module } from 'langium';
import type { DefaultSharedModuleContext, LangiumSharedServices } from 'langium/lsp';
import { createChainServices, type ChainServices } from './chain-module.js';

export class BatchIndexManager extends DefaultIndexManager {
    override async updateReferences(_document: LangiumDocument): Promise<void> {
        // Nothing asks for references in a batch run.
    }
}

const ChainBatchSharedModule: Module<LangiumSharedServices, DeepPartial<LangiumSharedServices>> = {
    workspace: {
        IndexManager: services => new BatchIndexManager(services),
    },
};

export function createBatchChainServices(context: DefaultSharedModuleContext): {
    shared: LangiumSharedServices;
    Chain: ChainServices;
} {
    return createChainServices(context, { shared: [ChainBatchSharedModule] });
}
