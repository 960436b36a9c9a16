/**
 * Turns a validated .chain document into the requested diagram view. The text stays the source of truth,
 * and editing goes through states with errors (a new box's input is unconnected until the next gesture), so
 * a model with linking or validation errors still shows everything that parsed, its problems as markers on
 * the nodes and ports. Only a syntax error, which loses structure, keeps the last good diagram (marked
 * stale), as do the views that need a model the planner accepts (plan, lanes).
 */
import type { AstNode, LangiumDocument } from 'langium';
import { LangiumDiagramGenerator, type GeneratorContext } from 'langium-sprotty';
import type { SModelElement, SModelRoot } from 'sprotty-protocol';
import { isChain, isPtts, type Model } from '../generated/ast.js';
import { documentExportContext } from '../ir/document-export-context.js';
import { whenValidated } from '../dsl/document-ready.js';
import { exportIr, IrExportError } from '../ir/ir-export.js';
import type { IrModel } from '../ir/ir-types.js';
import type { AnalysisResults } from './analysis-results.js';
import { chainView } from './chain-view.js';
import { messageGraph, VIEWS, type ChainlabGraph, type DiagramView } from './diagram-elements.js';
import type { PlanSource } from './plan-view.js';
import { lanesView } from './lanes-view.js';
import { sameSchedule, type MeasuredTaskStore } from './measured-tasks.js';
import { chainCostUnit, planView } from './plan-view.js';
import { pttsView } from './ptts-view.js';
import { withResults } from './results-colouring.js';
import { timelineView } from './timeline-view.js';
import type { ChainlabDiagramOptions, ViewContext } from './view-context.js';
import type { ChainlabDiagramServices } from './diagram-module.js';

export class ChainlabDiagramGenerator extends LangiumDiagramGenerator {
    private readonly lastGood = new Map<string, ChainlabGraph>();
    private readonly analyses: AnalysisResults;
    private readonly measured: MeasuredTaskStore;
    private readonly plans: PlanSource;
    private readonly shared: ChainlabDiagramServices['shared'];

    constructor(services: ChainlabDiagramServices) {
        super(services);
        this.shared = services.shared;
        this.analyses = services.diagram.AnalysisResults;
        this.measured = services.diagram.MeasuredTasks;
        this.plans = services.diagram.PlanSource;
    }

    protected override async generateRoot(args: GeneratorContext): Promise<SModelRoot> {
        const options = (args.options ?? {}) as ChainlabDiagramOptions;
        const view = viewOf(options);
        const document = args.document as LangiumDocument<Model>;
        await whenValidated(this.shared, document);
        const key = `${document.uri.toString()}|${view}|${options.element ?? ''}|${options.heuristic ?? ''}`;
        const syntax = syntaxErrorOf(document);
        if (syntax) return this.stale(key, view, options.element, syntax);
        const problem = errorsOf(document);
        let ir: IrModel | undefined;
        try {
            ir = exportIr(document.parseResult.value, documentExportContext(document.uri));
        } catch (error) {
            // with unresolved references the export may fail anywhere; the box chain is drawn from the AST then
            if (!(error instanceof IrExportError) && !problem) throw error;
            if (view !== 'chain') return this.stale(key, view, options.element, problem ?? (error as Error).message);
        }
        if (problem && (view === 'plan' || view === 'lanes')) return this.stale(key, view, options.element, problem);
        const graph = await this.build(view, ir, document, options, this.viewContext(args, options));
        if (options.viewport) graph.viewport = options.viewport; // the layout fits the panel's aspect ratio
        this.lastGood.set(key, structuredClone(graph)); // a picture with markers is still the last that parsed
        return graph;
    }

    private async build(
        view: DiagramView,
        ir: IrModel | undefined,
        document: LangiumDocument<Model>,
        options: ChainlabDiagramOptions,
        ctx: ViewContext,
    ): Promise<ChainlabGraph> {
        const elements = document.parseResult.value.elements;
        if (view === 'chain' || view === 'plan' || view === 'lanes') {
            const chain = elements.filter(isChain).find(c => !options.element || c.name === options.element);
            if (!chain)
                return messageGraph(
                    view,
                    options.element ? `no chain named ${options.element} in this file` : 'this file has no chain',
                    options.element,
                );
            const run = this.measured.get(document.uri.toString(), chain.name);
            const planOf = () => {
                if (!ir) throw new Error('the model does not export');
                return this.plans.plan(ir, chain.name, options.heuristic || undefined);
            };
            const results = { by: options.colourBy, run, timeUnit: chainCostUnit(chain) };
            if (view === 'chain') return withResults(chainView(ir, chain, ctx), { ...results, plan: planOf });
            if (!ir) return messageGraph(view, 'the model does not export', chain.name);
            let plan;
            try {
                plan = await planOf();
            } catch (error) {
                return messageGraph(view, `the planner failed: ${(error as Error).message}`, chain.name);
            }
            if (view === 'plan') return withResults(planView(chain, plan, ctx), { ...results, plan: () => plan });
            // the model's plan stays the view; measured bars belong to the plan that ran, which on a target with
            // fewer cores has other threads: the overlay draws those in lanes of their own
            const ranPlan = run?.plan && !sameSchedule(plan, run.plan) ? run.plan : undefined;
            return lanesView(chain, plan, ctx, run && { tasks: run, shown: options.showMeasured === true, ranPlan });
        }
        const ptts = elements.filter(isPtts).find(p => !options.element || p.name === options.element);
        if (!ptts)
            return messageGraph(
                view,
                options.element ? `no ptts named ${options.element} in this file` : 'this file has no ptts',
                options.element,
            );
        if (!ir) return messageGraph(view, 'the model does not export', ptts.name);
        return view === 'ptts'
            ? pttsView(ir, ptts, this.analyses.get(document.uri.toString(), ptts.name), ctx)
            : timelineView(ir, ptts, ctx);
    }

    private stale(key: string, view: DiagramView, element: string | undefined, reason: string): ChainlabGraph {
        const last = this.lastGood.get(key);
        if (!last) return messageGraph(view, `no diagram yet: ${reason}`, element);
        return { ...structuredClone(last), stale: true, staleReason: reason };
    }

    private viewContext(args: GeneratorContext, options: ChainlabDiagramOptions): ViewContext {
        return {
            options,
            id: (proposal, source) => args.idCache.uniqueId(proposal, source),
            idOf: source => args.idCache.getId(source),
            trace: (element: SModelElement, source: AstNode | undefined, issuesOf: AstNode | undefined = source) => {
                if (source) this.traceProvider.trace(element, source);
                if (issuesOf) this.markerProvider.addDiagnosticMarker(element, issuesOf, args);
            },
        };
    }
}

/** The view named by the `view` option, else by a diagram type `chainlab-<view>`, else the box chain. */
export function viewOf(options: ChainlabDiagramOptions & { diagramType?: string }): DiagramView {
    const named = options.view ?? /^chainlab-(\w+)$/.exec(options.diagramType ?? '')?.[1];
    return VIEWS.includes(named as DiagramView) ? (named as DiagramView) : 'chain';
}

/** The document's first lexer or parser error (the AST may have lost structure), or undefined. */
function syntaxErrorOf(document: LangiumDocument): string | undefined {
    const { lexerErrors, parserErrors } = document.parseResult;
    if (!lexerErrors.length && !parserErrors.length) return undefined;
    const e = lexerErrors[0] ?? parserErrors[0];
    const line = 'line' in e ? e.line : (e as { token: { startLine?: number } }).token.startLine;
    return `syntax error at line ${line ?? '?'}: ${e.message}`;
}

/** The first linking or validation error of the document as `line:col: message`, or undefined when it has none. */
function errorsOf(document: LangiumDocument): string | undefined {
    const errors = (document.diagnostics ?? []).filter(d => d.severity === 1);
    if (!errors.length) return undefined;
    const first = errors[0];
    return `${errors.length} error(s), first at ${first.range.start.line + 1}:${first.range.start.character + 1}: ${first.message}`;
}
