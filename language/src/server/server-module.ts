/**
 * What the language server adds to the language besides the diagrams: quick fixes that ask the backend
 * (nearby periods), write a run's measurement (ETP) or a sweep's best point. Kept out of src/dsl, which never
 * talks to the backend.
 */
import type { Module } from 'langium';
import type { LangiumServices } from 'langium/lsp';
import type { CostSource } from './nearby-periods.js';
import type { RunResults } from './run-results.js';
import { ServerCodeActionProvider } from './server-code-actions.js';
import type { SweepResults } from './sweep-results.js';

export function createServerModule(
    costs: CostSource,
    runs: RunResults,
    sweeps: SweepResults,
): Module<LangiumServices, { lsp: Pick<LangiumServices['lsp'], 'CodeActionProvider'> }> {
    return {
        lsp: {
            CodeActionProvider: () => new ServerCodeActionProvider(costs, runs, sweeps),
        },
    };
}
