/**
 * View 3, the PTTS chain: one node per component in chain order with its period, offset and a sparkline of
 * its ETP (the CDF), and a summary node with the latest analysis (p99, loss, requirements) or a hint to run it.
 */
import type { SModelElement } from 'sprotty-protocol';
import { formatMs, formatProbability } from '@chainlab/contract';
import type { Ptts } from '../generated/ast.js';
import type { IrModel } from '../ir/ir-types.js';
import { componentOffset as offsetOf, componentPeriod as periodOf, pttsComponents } from '../dsl/model-util.js';
import type { AnalysisSummary } from './analysis-results.js';
import {
    edge,
    label,
    messageGraph,
    node,
    port,
    T,
    type ChainlabGraph,
    type ChainlabNode,
    type Sparkline,
} from './diagram-elements.js';
import { cdfSparkline, etpPoints, sparklineX } from './etp-points.js';
import { formatAsWritten, formatTime } from './time-format.js';
import type { ViewContext } from './view-context.js';

const SPARK = { width: 120, height: 36 };

export function pttsView(
    ir: IrModel,
    ptts: Ptts,
    analysis: AnalysisSummary | undefined,
    ctx: ViewContext,
): ChainlabGraph {
    const irPtts = ir.ptts.find(p => p.name === ptts.name);
    if (!irPtts) return messageGraph('ptts', `ptts ${ptts.name} is not in the exported model`, ptts.name);
    const asts = new Map(pttsComponents(ptts).map(c => [c.name, c]));
    const children: SModelElement[] = [];
    let previous: string | undefined;
    for (const c of irPtts.components) {
        const id = ctx.id(c.name, asts.get(c.name));
        const points = etpPoints(c.etp);
        const etpText =
            c.etp.kind === 'chain'
                ? `etp: latency of chain ${c.etp.chain}`
                : `etp ${c.etp.kind}${points ? ` ${etpRange(points)}` : ''}`;
        const ast = asts.get(c.name);
        // in the units the model writes them in; an offset without one reads in its period's
        const periodUnit = ast && periodOf(ast)?.unit;
        const offsetUnit = (ast && offsetOf(ast)?.unit) ?? periodUnit;
        const labels = [
            label(`${id}.name`, T.heading, c.name),
            label(
                `${id}.timing`,
                T.text,
                `period ${formatAsWritten(c.period_ns, periodUnit)} · offset ${formatAsWritten(c.offset_ns, offsetUnit)}`,
            ),
            label(`${id}.etp`, T.text, etpText),
        ];
        const n = node(
            id,
            T.component,
            labels,
            {},
            labels.length * 16 + 16 + (points ? SPARK.height + 8 : 0),
            SPARK.width + 20,
        );
        if (points) {
            const spark: Sparkline = {
                type: T.sparkline,
                id: `${id}.etp-cdf`,
                points: cdfSparkline(points),
                position: { x: (n.size!.width - SPARK.width) / 2, y: labels.length * 16 + 12 },
                size: SPARK,
            };
            n.children!.push(spark);
        }
        n.children!.push(port(`${id}.in`, T.inPort), port(`${id}.out`, T.outPort));
        ctx.trace(n, asts.get(c.name));
        children.push(n);
        if (previous) children.push(edge(`${previous}->${id}`, T.edge, `${previous}.out`, `${id}.in`));
        previous = id;
    }
    const summary = analysisNode(analysis);
    children.push(summary);
    if (previous) children.push(edge(`${previous}->analysis`, T.edge, `${previous}.out`, 'analysis.in'));
    return { type: T.graph, id: 'root', view: 'ptts', element: ptts.name, children };
}

/** The end-to-end node: the analysis' numbers and, once analysed, its CDF with the p99 marked. */
function analysisNode(analysis: AnalysisSummary | undefined): ChainlabNode {
    const labels = analysisLabels(analysis);
    const points = analysis?.distribution.length ? [...analysis.distribution].sort((a, b) => a[0] - b[0]) : undefined;
    const summary = node(
        'analysis',
        T.banner,
        labels,
        { cssClasses: [analysisClass(analysis)] },
        labels.length * 16 + 16 + (points ? SPARK.height + 8 : 0),
        SPARK.width + 20,
    );
    if (points) {
        const spark: Sparkline = {
            type: T.sparkline,
            id: 'analysis.cdf',
            points: cdfSparkline(points),
            marks: [sparklineX(points, analysis!.percentiles['99'])],
            position: { x: (summary.size!.width - SPARK.width) / 2, y: labels.length * 16 + 12 },
            size: SPARK,
        };
        summary.children!.push(spark);
    }
    summary.children!.push(port('analysis.in', T.inPort));
    return summary;
}

function analysisLabels(a: AnalysisSummary | undefined) {
    if (!a)
        return [
            label('analysis.title', T.heading, 'end to end'),
            label('analysis.hint', T.text, 'not analysed yet: Analyze latency'),
        ];
    const lines = [
        label('analysis.title', T.heading, 'end to end'),
        label('analysis.p99', T.text, `p50 ${formatMs(a.percentiles['50'])} · p99 ${formatMs(a.percentiles['99'])}`),
        label('analysis.loss', T.text, `loss ${formatProbability(a.loss_probability)}`),
    ];
    const failed = a.requirements.filter(r => !r.passed).length;
    if (a.requirements.length)
        lines.push(
            label(
                'analysis.req',
                T.text,
                failed
                    ? `${failed} of ${a.requirements.length} requirements missed`
                    : `all ${a.requirements.length} requirements met`,
            ),
        );
    return lines;
}

function analysisClass(a: AnalysisSummary | undefined): string {
    if (!a) return 'analysis-none';
    return a.requirements.some(r => !r.passed) ? 'analysis-failed' : 'analysis-passed';
}

/** `30 ms .. 60 ms`, or `8 ms` for a point. */
function etpRange(points: Array<[number, number]>): string {
    const [lo, hi] = [points[0][0], points[points.length - 1][0]];
    return lo === hi ? formatTime(lo) : `${formatTime(lo)} .. ${formatTime(hi)}`;
}
