/**
 * Formatting: one element per block, one member per line, four-space indent.
 *
 * - Top-level elements are separated by one blank line (a comment on the line
 *   above an element stays attached to it).
 * - Block members (`box`, `chain`, `ptts`, `platform`, `target`, `throttle`)
 *   go on lines of their own, indented once; a single blank line between
 *   members is kept, more are collapsed.
 * - Inside a member the tokens are separated by one space, except `a.o`,
 *   `gain(1.5, 2)`, `0..3`, `p99.9`, `-1`, `name: Type`.
 * - A `pmf { ... }` written over several lines gets one entry per line;
 *   otherwise it stays inline as `pmf { 11 ms: 0.9, 12 ms: 0.1 }`.
 * - Comments are kept where they are (trailing comments stay on their line,
 *   comments on lines of their own are re-indented).
 * - A document with syntax errors is not formatted (no edits).
 */
import { AbstractFormatter, Formatting, type FormattingAction, type FormattingContext } from 'langium/lsp';
import type { TextEdit } from 'vscode-languageserver';
import { CstUtils, isCompositeCstNode, isLeafCstNode, type AstNode, type CstNode, type LeafCstNode } from 'langium';
import * as ast from '../../generated/ast.js';

/** Indent once on a new line; keep (at most) one blank line that was there. */
const INDENT_KEEP_BLANK: FormattingAction = {
    options: {},
    moves: [
        { tabs: 1, lines: 1 },
        { tabs: 1, lines: 2 },
    ],
};

export class ChainFormatter extends AbstractFormatter {
    protected format(node: AstNode): void {
        if (ast.isModel(node)) {
            this.formatModel(node);
            return;
        }
        const members = blockMembers(node);
        if (members) {
            this.formatBlock(node, members);
            return;
        }
        this.formatTokens(node);
        if (ast.isPmfEtp(node)) this.formatPmf(node);
    }

    /** Comments on lines of their own: re-indented (Langium), and at most one blank line above them. */
    protected override createHiddenTextEdits(
        previous: CstNode | undefined,
        hidden: CstNode,
        formatting: FormattingAction | undefined,
        context: FormattingContext,
    ): TextEdit[] {
        const edits = super.createHiddenTextEdits(previous, hidden, formatting, context);
        if (previous && hidden.range.start.line - previous.range.end.line > 2) {
            edits.unshift({
                newText: '',
                range: {
                    start: { line: previous.range.end.line + 2, character: 0 },
                    end: { line: hidden.range.start.line, character: 0 },
                },
            });
        }
        return edits;
    }

    private formatModel(model: ast.Model): void {
        const formatter = this.getNodeFormatter(model);
        model.elements.forEach((element, index) => {
            const region = formatter.node(element);
            if (index === 0) {
                region.prepend(Formatting.noIndent());
                return;
            }
            // An own-line comment right above an element belongs to it: no blank line in between.
            const before = element.$cstNode ? CstUtils.getPreviousNode(outermost(element.$cstNode), true) : undefined;
            const ownLineComment = before?.hidden && !isOnLineOfPreviousToken(before);
            region.prepend(ownLineComment ? Formatting.newLine() : Formatting.newLines(2));
        });
    }

    private formatBlock(node: AstNode, members: readonly AstNode[]): void {
        const formatter = this.getNodeFormatter(node);
        const open = formatter.keyword('{');
        const close = formatter.keyword('}');
        // Header tokens (`box Gain`, `chain XRay on LabPC`): single spaces.
        const leaves = ownLeaves(node);
        const openIndex = leaves.findIndex(l => l.text === '{' && l.astNode === node);
        this.spaceLeaves(node, leaves.slice(0, openIndex < 0 ? leaves.length : openIndex));
        open.prepend(Formatting.oneSpace());
        const interior = formatter.interior(open, close);
        if (
            interior.nodes.length === 0 ||
            (members.length === 0 && interior.nodes.every(n => !n.text.includes('\n') && !/^\/\//.test(n.text)))
        ) {
            // `box A { }` (an empty block, possibly with a short inline comment).
            close.prepend(Formatting.oneSpace());
            return;
        }
        interior.nodes.forEach((child, index) => {
            formatter.cst([child]).prepend(index === 0 ? Formatting.indent() : INDENT_KEEP_BLANK);
        });
        close.prepend(Formatting.newLine());
    }

    private formatPmf(node: ast.PmfEtp): void {
        const cst = node.$cstNode;
        if (!cst || node.entries.length === 0 || !cst.text.includes('\n')) return;
        // Written over several lines: one entry per line. Set on the tokens themselves,
        // overriding the single spaces the enclosing member asked for.
        const formatter = this.getNodeFormatter(node);
        for (const entry of node.entries) {
            const first = entry.$cstNode ? ownLeaves(entry)[0] : undefined;
            if (first) formatter.cst([first]).prepend(Formatting.indent());
        }
        formatter.keyword('}').prepend(Formatting.newLine());
    }

    /** Single spaces between the tokens of a member, with the exceptions of the language. */
    private formatTokens(node: AstNode): void {
        this.spaceLeaves(node, ownLeaves(node));
    }

    private spaceLeaves(node: AstNode, leaves: readonly LeafCstNode[]): void {
        if (leaves.length < 2) return;
        const formatter = this.getNodeFormatter(node);
        for (let i = 1; i < leaves.length; i++) {
            formatter.cst([leaves[i]]).prepend(spacing(leaves[i - 1], leaves[i]));
        }
    }
}

/** The space before `leaf`, given the token before it. */
function spacing(previous: LeafCstNode, leaf: LeafCstNode): FormattingAction {
    const text = leaf.text;
    const before = previous.text;
    if (text === ':' || text === ',' || text === ')' || text === '.' || text === '(') return Formatting.noSpace();
    if (before === '.' || before === '(') return Formatting.noSpace();
    if (text === '..' && ast.isCoreRange(leaf.astNode)) return Formatting.noSpace();
    if (before === '..' && ast.isCoreRange(previous.astNode)) return Formatting.noSpace();
    // `-` of a signed number: `gain(-1.5)`.
    if (before === '-' && ast.isKernel(previous.astNode)) return Formatting.noSpace();
    return Formatting.oneSpace();
}

/** Visible tokens of a node, comments excluded. */
function ownLeaves(node: AstNode): LeafCstNode[] {
    const cst = node.$cstNode;
    if (!cst) return [];
    return CstUtils.streamCst(cst)
        .filter((n): n is LeafCstNode => isLeafCstNode(n) && !n.hidden)
        .toArray();
}

/** The outermost CST node with the same range (elements are wrapped once per rule call). */
function outermost(cst: CstNode): CstNode {
    let node = cst;
    while (
        node.container &&
        node.container.offset === node.offset &&
        node.container.end === node.end &&
        isCompositeCstNode(node.container) &&
        node.container.astNode === cst.astNode
    ) {
        node = node.container;
    }
    return node;
}

/** Whether a hidden node (comment) starts on the line where the previous visible token ends. */
function isOnLineOfPreviousToken(hidden: CstNode): boolean {
    const previous = CstUtils.getPreviousNode(hidden, false);
    return previous !== undefined && previous.range.end.line === hidden.range.start.line;
}

/** The members of a block that go on lines of their own. */
function blockMembers(node: AstNode): readonly AstNode[] | undefined {
    if (ast.isBox(node) || ast.isChain(node) || ast.isPtts(node)) return node.members;
    if (ast.isPlatform(node) || ast.isTarget(node)) return node.settings;
    if (ast.isThrottle(node)) return node.mode ? [node.mode] : [];
    return undefined;
}
