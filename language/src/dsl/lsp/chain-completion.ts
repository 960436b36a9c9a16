/**
 * Completion: grammar keywords (Langium's default), cross-references with a
 * useful detail line and the hover text as documentation, kernel names with
 * their signatures where a kernel is expected, units after numbers, and the
 * ports of the instance after `inst.` (outputs on the left of `->`, inputs
 * on the right).
 *
 * Keywords carry what they mean (keyword-docs.ts, as the hover). Keywords that
 * the grammar only accepts as names (`Name: ID | 's' | 'in' | …`) are not
 * offered: a name is the user's to choose. Nor are settings the element
 * already has and may give only once (a box's second `kernel`, a chain's
 * second `schedule`; once-settings.ts), nor box members that would not fit
 * (`source` in a box with a kernel, a second `in` of a one-input kernel; box-fit.ts).
 */
import {
    DefaultCompletionProvider,
    type CompletionAcceptor,
    type CompletionContext,
    type CompletionValueItem,
    type NextFeature,
} from 'langium/lsp';
import { AstUtils, GrammarAST, type AstNode, type AstNodeDescription, type ReferenceInfo, type Stream } from 'langium';
import { CompletionItemKind, InsertTextFormat, type CompletionItem } from 'vscode-languageserver';
import {
    isBox,
    isChain,
    isImageType,
    isInstance,
    isPlatform,
    isPort,
    isPortRef,
    isThrottle,
} from '../../generated/ast.js';
import { KERNELS, PIXEL_TYPES } from '../kernels.js';
import { boxKernelName, boxPorts, chainInstances, platformCores } from '../model-util.js';
import { givenOnceIn, onceSettings } from '../once-settings.js';
import { membersNotFitting } from '../box-fit.js';
import { keywordMarkdown } from '../keyword-docs.js';
import { NAME_KEYWORD_RULE } from '../syntax-vocabulary.js';
import { formatBytes } from '../units.js';
import { describe, describeKernelSpec, imageBytes, kernelSignature } from './chain-hover.js';

/** What each unit keyword means, shown next to it. */
const UNIT_DETAILS: Readonly<Record<string, string>> = {
    s: 'seconds (10⁹ ns)',
    ms: 'milliseconds (10⁶ ns)',
    us: 'microseconds (10³ ns)',
    ns: 'nanoseconds',
    B: 'bytes',
    KiB: 'kibibytes (1024 B)',
    MiB: 'mebibytes (1024² B)',
    GiB: 'gibibytes (1024³ B)',
    '%': 'percent',
    'MB/s': 'megabytes per second',
    'GB/s': 'gigabytes per second',
    'MiB/s': 'mebibytes per second',
    'GiB/s': 'gibibytes per second',
};

const UNIT_RULES = new Set(['TimeUnit', 'SizeUnit', 'ThresholdUnit']);

/** The rules of the box members that what a box already has may rule out (box-fit.ts). */
const BOX_MEMBER_RULES = new Set(['Kernel', 'SourceSpec', 'PortDirection']);

function ruleOf(feature: GrammarAST.AbstractElement): string | undefined {
    return AstUtils.getContainerOfType(feature, GrammarAST.isParserRule)?.name;
}

export class ChainCompletionProvider extends DefaultCompletionProvider {
    override readonly completionOptions = { triggerCharacters: ['.'] };

    protected override completionFor(
        context: CompletionContext,
        next: NextFeature,
        acceptor: CompletionAcceptor,
    ): void | Promise<void> {
        const rule = ruleOf(next.feature);
        if (rule === 'KernelName') {
            this.completeKernels(context, acceptor);
            return;
        }
        // Keywords that only serve as names: nothing to propose.
        if (rule === NAME_KEYWORD_RULE) return;
        return super.completionFor(context, next, acceptor);
    }

    protected completeKernels(context: CompletionContext, acceptor: CompletionAcceptor): void {
        const text = context.textDocument.getText();
        // Arguments already written after the name (`kernel ga|(1.5)`): complete the name only.
        const hasArguments = /^\s*\(/.test(text.slice(context.tokenEndOffset));
        for (const spec of KERNELS.values()) {
            const signature = kernelSignature(spec);
            const requiredParams = spec.params.slice(0, spec.params.length - (spec.optional ?? 0));
            const snippet =
                !hasArguments && requiredParams.length > 0
                    ? `${spec.name}(${requiredParams.map((p, i) => `\${${i + 1}:${p.name}}`).join(', ')})`
                    : undefined;
            acceptor(context, {
                label: spec.name,
                labelDetails: { detail: signature.slice(spec.name.length) || undefined, description: 'kernel' },
                kind: CompletionItemKind.Function,
                detail: `kernel ${signature}`,
                documentation: { kind: 'markdown', value: describeKernelSpec(spec) },
                insertText: snippet,
                insertTextFormat: snippet ? InsertTextFormat.Snippet : undefined,
                sortText: '0',
            });
        }
    }

    protected override filterKeyword(context: CompletionContext, keyword: GrammarAST.Keyword): boolean {
        const rule = ruleOf(keyword);
        if (rule === 'ThresholdUnit' || (rule === 'Probability' && keyword.value === '%')) return true;
        return super.filterKeyword(context, keyword);
    }

    protected override completionForKeyword(
        context: CompletionContext,
        keyword: GrammarAST.Keyword,
        acceptor: CompletionAcceptor,
    ): void | Promise<void> {
        const rule = ruleOf(keyword);
        if (!this.filterKeyword(context, keyword)) return;
        if (rule && this.alreadyGiven(context, rule, keyword.value)) return;
        if (rule && BOX_MEMBER_RULES.has(rule) && this.notFitting(context, keyword.value)) return;
        if ((rule && UNIT_RULES.has(rule)) || (rule === 'Probability' && keyword.value === '%')) {
            // Right after a digit (`cost 3|`) the unit goes in with a space: `cost 3 ms`.
            const afterDigit =
                context.tokenOffset === context.offset &&
                /\d$/.test(context.textDocument.getText().slice(0, context.offset));
            acceptor(context, {
                label: keyword.value,
                insertText: afterDigit ? ` ${keyword.value}` : undefined,
                kind: CompletionItemKind.Unit,
                detail: UNIT_DETAILS[keyword.value] ?? 'unit',
                sortText: '0',
            });
            return;
        }
        const meaning = keywordMarkdown(keyword.value, rule);
        acceptor(context, {
            label: keyword.value,
            kind: this.getKeywordCompletionItemKind(keyword),
            detail: 'Keyword',
            documentation: meaning ? { kind: 'markdown', value: meaning } : undefined,
            sortText: '1',
        });
    }

    /** Whether the box being written cannot take the member `keyword` starts (box-fit.ts). */
    protected notFitting(context: CompletionContext, keyword: string): boolean {
        const box = context.node && AstUtils.getContainerOfType(context.node, isBox);
        return !!box && membersNotFitting(box, member => covers(member, context.tokenOffset)).has(keyword);
    }

    /**
     * Whether the element being written already has the setting that `keyword` starts (a box its kernel, a chain
     * its schedule): it may be given only once, so it is not offered again. The setting the cursor is in does
     * not count (retyping its own keyword).
     */
    protected alreadyGiven(context: CompletionContext, rule: string, keyword: string): boolean {
        for (let node = context.node; node; node = node.$container) {
            if (!givenOnceIn(node, rule, this.astReflection)) continue;
            return onceSettings(node)!.some(
                setting => setting.kind === keyword && !covers(setting, context.tokenOffset),
            );
        }
        return false;
    }

    protected override getReferenceCandidates(
        refInfo: ReferenceInfo,
        context: CompletionContext,
    ): Stream<AstNodeDescription> {
        const candidates = super.getReferenceCandidates(refInfo, context);
        const container = refInfo.container;
        if (isPortRef(container) && refInfo.property === 'port') {
            // `a.o -> b.i`: outputs on the left, inputs on the right (all ports if none fits).
            const side =
                container.$containerProperty === 'to'
                    ? 'in'
                    : container.$containerProperty === 'from'
                      ? 'out'
                      : undefined;
            if (side) {
                const fitting = candidates.filter(d => !isPort(d.node) || d.node.direction === side);
                if (!fitting.isEmpty()) return fitting;
            }
        }
        return candidates;
    }

    protected override createReferenceCompletionItem(description: AstNodeDescription): CompletionValueItem {
        const item = super.createReferenceCompletionItem(description);
        const node = description.node;
        let documentation: CompletionItem['documentation'] = item.documentation;
        try {
            const text = node ? describe(node) : undefined;
            if (text) documentation = { kind: 'markdown', value: text };
        } catch {
            // Documentation is a bonus; never fail completion for it.
        }
        return { ...item, ...referenceKindAndDetail(description), documentation };
    }
}

function covers(node: AstNode, offset: number): boolean {
    const cst = node.$cstNode;
    return !!cst && cst.offset <= offset && offset <= cst.end;
}

function referenceKindAndDetail(description: AstNodeDescription): Partial<CompletionItem> {
    const node = description.node;
    if (isImageType(node)) {
        const known = PIXEL_TYPES.has(node.pixel);
        return {
            kind: CompletionItemKind.Struct,
            detail: `image ${node.width} × ${node.height} of ${node.pixel}${known ? `, ${formatBytes(imageBytes(node))}` : ''}`,
        };
    }
    if (isBox(node)) {
        const ports = boxPorts(node)
            .map(p => `${p.direction} ${p.name}`)
            .join(', ');
        return {
            kind: CompletionItemKind.Class,
            detail: `box, kernel ${boxKernelName(node) ?? '(none)'}${ports ? `; ${ports}` : ''}`,
        };
    }
    if (isInstance(node))
        return { kind: CompletionItemKind.Variable, detail: `instance of ${node.box?.$refText ?? '?'}` };
    if (isPort(node))
        return { kind: CompletionItemKind.Field, detail: `${node.direction} port: ${node.type?.$refText ?? '?'}` };
    if (isChain(node))
        return { kind: CompletionItemKind.Module, detail: `chain, ${chainInstances(node).length} boxes` };
    if (isPlatform(node))
        return { kind: CompletionItemKind.Module, detail: `platform, ${platformCores(node) ?? '?'} cores` };
    if (isThrottle(node)) return { kind: CompletionItemKind.Event, detail: `throttle, ${node.mode?.kind ?? '?'}` };
    return {};
}
