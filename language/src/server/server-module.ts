/**
 * What the language server adds to the language besides the diagrams: quick fixes that ask the backend
 * (nearby periods) or write a run's measurement (ETP). Kept out of src/dsl, which never talks to the backend.
 */
import type { Module } from 'langium';
import type { LangiumServices } from 'langium/lsp';
import type { CostSource } from './nearby-periods.js';
import type { RunResults } from './run-results.js';
import { ServerCodeActionProvider } from './server-code-actions.js';

export function createServerModule(
    costs: CostSource,
    runs: RunResults,
): Module<LangiumServices, { lsp: Pick<LangiumServices['lsp'], 'CodeActionProvider'> }> {
    return {
        lsp: {
            CodeActionProvider: () => new ServerCodeActionProvider(costs, runs),
        },
    };
}
