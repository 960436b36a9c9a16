/** Formatting: one element per block, one member per line, four-space indent. */
import { AbstractFormatter, Formatting } from 'langium/lsp';
import type { AstNode } from 'langium';
import * as ast from '../../generated/ast.js';

export class ChainFormatter extends AbstractFormatter {
    protected format(node: AstNode): void {
        if (ast.isModel(node)) {
            const formatter = this.getNodeFormatter(node);
            const elements = formatter.nodes(...node.elements.slice(1));
            elements.prepend(Formatting.newLines(2));
            if (node.elements.length > 0) formatter.node(node.elements[0]).prepend(Formatting.noIndent());
            return;
        }
        const members = blockMembers(node);
        if (members) {
            const formatter = this.getNodeFormatter(node);
            const open = formatter.keyword('{');
            const close = formatter.keyword('}');
            open.prepend(Formatting.oneSpace());
            formatter.interior(open, close).prepend(Formatting.indent());
            close.prepend(Formatting.newLine());
            return;
        }
        if (ast.isPmfEtp(node)) {
            const formatter = this.getNodeFormatter(node);
            formatter.keywords(',').prepend(Formatting.noSpace()).append(Formatting.oneSpace());
            formatter.keyword('{').append(Formatting.oneSpace());
            formatter.keyword('}').prepend(Formatting.oneSpace());
            return;
        }
        if (ast.isPortRef(node) || ast.isKernel(node) || ast.isCoreRange(node)) {
            const formatter = this.getNodeFormatter(node);
            formatter.keywords('.', '(', ')', '..').surround(Formatting.noSpace());
            formatter.keywords(',').prepend(Formatting.noSpace()).append(Formatting.oneSpace());
            if (ast.isKernel(node)) formatter.keyword('(').prepend(Formatting.noSpace());
        }
    }
}

/** The members of a block that go on lines of their own. */
function blockMembers(node: AstNode): AstNode[] | undefined {
    if (ast.isBox(node) || ast.isChain(node) || ast.isPtts(node)) return node.members;
    if (ast.isPlatform(node) || ast.isTarget(node)) return node.settings;
    if (ast.isThrottle(node)) return node.mode ? [node.mode] : [];
    return undefined;
}

