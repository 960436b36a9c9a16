/**
 * The quick fixes of the language server: the language's own, nearby periods the backend proposes for a
 * ptts whose exact analysis it refuses, and "Update ETP from measurement" on `etp chain X` once a run of
 * X was measured. Registered in the server's composition (server-module.ts).
 */
import type { LangiumDocument } from 'langium';
import {
    CodeActionKind,
    type CodeAction,
    type CodeActionParams,
    type Command,
    type Range,
} from 'vscode-languageserver';
import { ChainCodeActionProvider } from '../dsl/lsp/chain-code-actions.js';
import { Codes } from '../dsl/validation/diagnostic-codes.js';
import { chainEtps, measuredEtpEdits, runMeasurement } from './measured-etp.js';
import { nearbyPeriodActions, type CostSource } from './nearby-periods.js';
import type { RunResults } from './run-results.js';

/** The editor's command that writes a run's ETP after showing its concern (extension/src/commands.ts). */
export const UPDATE_ETP_COMMAND = 'chainlab.updateEtpFromMeasurement';

const overlaps = (a: Range, b: Range) => a.start.line <= b.end.line && b.start.line <= a.end.line;

export class ServerCodeActionProvider extends ChainCodeActionProvider {
    constructor(
        private readonly costs: CostSource,
        private readonly runs: RunResults,
    ) {
        super();
    }

    override async getCodeActions(
        document: LangiumDocument,
        params: CodeActionParams,
    ): Promise<Array<Command | CodeAction>> {
        const actions = [...(await super.getCodeActions(document, params))];
        for (const diagnostic of params.context.diagnostics) {
            if ((diagnostic.data as { code?: string } | undefined)?.code === Codes.slowAnalysis) {
                actions.push(...(await nearbyPeriodActions(document, diagnostic, this.costs)));
            }
        }
        return [...actions, ...this.measuredEtpActions(document, params.range)];
    }

    /** One action per measured chain whose `etp chain X` is on the lines asked about; it rewrites all of them. */
    private measuredEtpActions(document: LangiumDocument, range: Range): CodeAction[] {
        const uri = document.uri.toString();
        if (!this.runs.hasRuns(uri)) return [];
        const chains = new Set(
            chainEtps(document, undefined)
                .filter(etp => etp.$cstNode && overlaps(etp.$cstNode.range, range))
                .map(etp => etp.chain.$refText),
        );
        const actions: CodeAction[] = [];
        for (const chain of chains) {
            const run = this.runs.get(uri, chain);
            const measurement = run && runMeasurement(run);
            if (!measurement) continue;
            if (measurement.concern) {
                // no silent edit from a run that measured a backlog: the editor's command shows why and asks first
                actions.push({
                    title: `Update ETP from measurement (${chain}): the run is suspect, review first`,
                    kind: CodeActionKind.RefactorRewrite,
                    command: {
                        title: 'Update ETP from measurement',
                        command: UPDATE_ETP_COMMAND,
                        arguments: [uri, chain],
                    },
                });
                continue;
            }
            actions.push({
                title: `Update ETP from measurement (${chain})`,
                kind: CodeActionKind.RefactorRewrite,
                edit: { changes: { [document.textDocument.uri]: measuredEtpEdits(document, chain, measurement) } },
            });
        }
        return actions;
    }
}
