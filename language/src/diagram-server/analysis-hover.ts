/**
 * The hover of the language server: the language's hover plus, on a ptts, its latest `Analyze latency`
 * result (kept in AnalysisResults for the diagrams) with a small CDF picture; on a component, the result
 * of its ptts (a component's latency is only known end to end).
 */
import { AstUtils, type AstNode } from 'langium';
import { formatMs, formatProbability } from '@chainlab/contract';
import type { LangiumServices } from 'langium/lsp';
import { isComponent, isPtts } from '../generated/ast.js';
import { ChainHoverProvider } from '../dsl/lsp/chain-hover.js';
import type { AnalysisResults } from './analysis-results.js';
import { cdfMarkdownImage } from './cdf-svg.js';

export class AnalysisHoverProvider extends ChainHoverProvider {
    constructor(
        services: LangiumServices,
        private readonly results: AnalysisResults,
    ) {
        super(services);
    }

    protected override supplement(node: AstNode): string | undefined {
        const ptts = isPtts(node) ? node : isComponent(node) ? node.$container : undefined;
        if (!ptts) return undefined;
        const r = this.results.get(AstUtils.getDocument(node).uri.toString(), ptts.name);
        if (!r) return undefined;
        const failed = r.requirements.filter(q => !q.passed).length;
        const verdict = r.requirements.length
            ? ` · ${failed ? `${failed} requirement(s) missed` : 'requirements met'}`
            : '';
        return [
            `**latest analysis${ptts === node ? '' : ` of ${ptts.name}`}**: p50 ${formatMs(r.percentiles['50'])} · p99 ${formatMs(r.percentiles['99'])} · mean ${formatMs(r.mean_ms)}` +
                ` · loss ${formatProbability(r.loss_probability)}${verdict}`,
            cdfMarkdownImage(r.distribution, r.percentiles['99']),
        ].join('\n\n');
    }
}
