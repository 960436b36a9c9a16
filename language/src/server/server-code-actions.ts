/**
 * The quick fixes of the language server: the language's own, nearby periods the backend proposes for a
 * ptts whose exact analysis it refuses, "Update ETP from measurement" on `etp chain X` once a run of
 * X was measured, and the best point of the latest sweep of a ptts (Explore offsets) on that ptts. Registered in
 * the server's composition (server-module.ts).
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
import { readableNs } from '../dsl/units.js';
import { Codes } from '../dsl/validation/diagnostic-codes.js';
import { isPtts, type Model } from '../generated/ast.js';
import { chainEtps, measuredEtpEdits, runMeasurement } from './measured-etp.js';
import { nearbyPeriodActions, type CostSource } from './nearby-periods.js';
import { pointEdits } from './offset-edits.js';
import type { RunResults } from './run-results.js';
import type { SweepResults } from './sweep-results.js';

/** The editor's command that writes a run's ETP after showing its concern (extension/src/commands.ts). */
export const UPDATE_ETP_COMMAND = 'chainlab.updateEtpFromMeasurement';

const overlaps = (a: Range, b: Range) => a.start.line <= b.end.line && b.start.line <= a.end.line;

export class ServerCodeActionProvider extends ChainCodeActionProvider {
    constructor(
        private readonly costs: CostSource,
        private readonly runs: RunResults,
        private readonly sweeps: SweepResults,
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
        return [
            ...actions,
            ...this.measuredEtpActions(document, params.range),
            ...this.sweptPointActions(document, params.range),
        ];
    }

    /** On a ptts that was swept: its best point written as one edit (offsets, and periods where they were swept). */
    private sweptPointActions(document: LangiumDocument, range: Range): CodeAction[] {
        const uri = document.uri.toString();
        if (!this.sweeps.has(uri)) return [];
        const model = document.parseResult.value as Model;
        const actions: CodeAction[] = [];
        for (const ptts of model.elements.filter(isPtts)) {
            const best = ptts.$cstNode && overlaps(ptts.$cstNode.range, range) && this.sweeps.get(uri, ptts.name);
            if (!best) continue;
            let edits;
            try {
                edits = pointEdits(document as LangiumDocument<Model>, ptts.name, best.offsets_ns, best.periods_ns);
            } catch {
                continue; // the text changed since the sweep: a component is gone
            }
            if (!edits.length) continue;
            const what = [
                ...Object.entries(best.offsets_ns).map(([name, ns]) => `${name} offset ${readableNs(ns)}`),
                ...Object.entries(best.periods_ns).map(([name, ns]) => `${name} period ${readableNs(ns)}`),
            ].join(', ');
            actions.push({
                title: `Apply the best point of the last sweep (${best.objective}${best.complete ? '' : ', sweep stopped early'}): ${what}`,
                kind: CodeActionKind.RefactorRewrite,
                edit: { changes: { [document.textDocument.uri]: edits } },
            });
        }
        return actions;
    }

    /** One action per measured chain whose `etp chain X` is on the lines asked about; it rewrites all of them. */
    private measuredEtpActions(document: LangiumDocument, range: Range): CodeAction[] {
        const uri = document.uri.toString();
        if (!this.runs.has(uri)) return [];
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
