/**
 * Folding: blocks (`box`, `chain`, `ptts`, `platform`, `target`, `throttle`),
 * multi-line `pmf { … }` lists, multi-line comments, and runs of three or
 * more `//` comment lines.
 */
import { DefaultFoldingRangeProvider, type FoldingRangeAcceptor } from 'langium/lsp';
import { CstUtils, type AstNode, type LangiumDocument } from 'langium';
import { FoldingRange, FoldingRangeKind } from 'vscode-languageserver';
import { isBox, isChain, isPlatform, isPmfEtp, isPtts, isTarget, isThrottle } from '../../generated/ast.js';

export class ChainFoldingRangeProvider extends DefaultFoldingRangeProvider {
    protected override shouldProcess(node: AstNode): boolean {
        return (
            isBox(node) ||
            isChain(node) ||
            isPtts(node) ||
            isPlatform(node) ||
            isTarget(node) ||
            isThrottle(node) ||
            isPmfEtp(node)
        );
    }

    protected override collectCommentFolding(
        document: LangiumDocument,
        node: AstNode,
        acceptor: FoldingRangeAcceptor,
    ): void {
        super.collectCommentFolding(document, node, acceptor);
        const cst = node.$cstNode;
        if (!cst) return;
        // Runs of line comments, each on a line of its own.
        let runStart: number | undefined;
        let runEnd = -1;
        const flush = () => {
            if (runStart !== undefined && runEnd - runStart >= 2)
                acceptor(FoldingRange.create(runStart, runEnd, undefined, undefined, FoldingRangeKind.Comment));
            runStart = undefined;
        };
        const text = document.textDocument;
        for (const leaf of CstUtils.flattenCst(cst)) {
            if (leaf.hidden && leaf.tokenType.name === 'SL_COMMENT') {
                const line = leaf.range.start.line;
                const lineText = text.getText({ start: { line, character: 0 }, end: leaf.range.start });
                if (lineText.trim() !== '') {
                    flush();
                    continue;
                }
                if (runStart !== undefined && line === runEnd + 1) {
                    runEnd = line;
                } else {
                    flush();
                    runStart = line;
                    runEnd = line;
                }
            } else if (!leaf.hidden) {
                flush();
            }
        }
        flush();
    }
}
