/**
 * The Langium parser with a leaner CST builder (a 2,000-box chain is ~33,000 tokens, each one a CST leaf):
 *
 * - Langium 3.5's CstNodeBuilder.addHiddenNodes is called before every token, also when no comment
 *   precedes it, and for the first token of a new node it searches the node's position in its parent
 *   (`indexOf`). Inside a chain with thousands of instances and connections that search is linear in the
 *   chain's size, so parsing grew quadratically (4,000 boxes: 500 → 270 ms). With nothing to add there is
 *   nothing to search for.
 * - Appending a child went through the content array's `push(...items)` override, allocating a rest array
 *   and iterating it for every node; the builder sets the parent itself and appends directly.
 */
import { CompositeCstNodeImpl, CstNodeBuilder, CstUtils, LeafCstNodeImpl, createLangiumParser } from 'langium';
import type { CompositeCstNode, CstNode, GrammarAST, LangiumCoreServices, LangiumParser, LeafCstNode } from 'langium';

type Token = Parameters<CstNodeBuilder['buildLeafNode']>[0];
type Internals = { rootNode: CompositeCstNodeImpl; nodeStack: CompositeCstNodeImpl[] };

const arrayPush = Array.prototype.push;

function append(parent: CompositeCstNodeImpl, child: CstNode): void {
    (child as { container?: CompositeCstNode }).container = parent;
    arrayPush.call(parent.content, child);
}

export class ChainCstNodeBuilder extends CstNodeBuilder {
    override addHiddenNodes(tokens: Token[]): void {
        if (tokens.length > 0) super.addHiddenNodes(tokens);
    }

    override buildCompositeNode(feature: GrammarAST.AbstractElement): CompositeCstNode {
        const self = this as unknown as Internals;
        const node = new CompositeCstNodeImpl();
        node.grammarSource = feature;
        node.root = self.rootNode as never;
        append(this.current, node);
        self.nodeStack.push(node);
        return node;
    }

    override buildLeafNode(token: Token, feature?: GrammarAST.AbstractElement): LeafCstNode {
        const self = this as unknown as Internals;
        const leaf = new LeafCstNodeImpl(token.startOffset, token.image.length, CstUtils.tokenToRange(token), token.tokenType, !feature);
        leaf.grammarSource = feature;
        leaf.root = self.rootNode as never;
        append(this.current, leaf);
        return leaf;
    }
}

export function createChainParser(services: LangiumCoreServices): LangiumParser {
    const parser = createLangiumParser(services);
    // The builder is a private field of LangiumParser, created in its constructor; parse() starts from buildRootNode.
    (parser as unknown as { nodeBuilder: CstNodeBuilder }).nodeBuilder = new ChainCstNodeBuilder();
    return parser;
}
