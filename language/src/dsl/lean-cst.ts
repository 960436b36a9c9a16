/**
 * The syntax tree (CST) Langium builds, in less memory: a model near the 4 MiB limit made ~1.3 million CST nodes,
 * and habits of Langium 3.5's builder cost most of their bytes:
 * - every leaf stores its range as three objects (a Range and two Positions, ~120 bytes) although the editor asks
 *   for few of them, and its root: here a leaf has four fields and computes its range from its offset when asked (a
 *   binary search in the line starts of its document, made once per parse);
 * - every composite node's children live in an array grown by `push`, which V8 gives room for 17 elements at the
 *   first push (~150 bytes for one child, the common case: a cross-reference, a name): here a finished node keeps a
 *   single child alone and more in a plain array of their exact size;
 * - a name, a reference or a number is a node around its one token, and a choice (`ChainMember: Instance | …`) a
 *   node around the chosen rule's: here the token, or the chosen node, takes the wrapper's place.
 * It also skips Langium's search for a node's position in its parent when no comment precedes a token: that search
 * is linear in the chain's size, so parsing grew quadratically (4,000 boxes: parse 500 → 270 ms).
 */
import {
    CstNodeBuilder,
    GrammarAST,
    type AstNode,
    type CompositeCstNode,
    type CstNode,
    type LeafCstNode,
    type RootCstNode,
} from 'langium';
import type { TokenType } from 'chevrotain';
import type { Position, Range } from 'vscode-languageserver';
import { lineStartsOf, positionFrom } from './line-starts.js';
import { registerTokenType, tokenTypeAt } from './lean-tokens.js';

type Constructed = Parameters<CstNodeBuilder['construct']>[0];
type HiddenTokens = Parameters<CstNodeBuilder['addHiddenNodes']>[0];
type FeatureOf = Parameters<CstNodeBuilder['buildLeafNode']>[1];

/** More token types than a process makes (chevrotain numbers them from 0, across all lexers). */
const TYPES = 65536;

/** The offsets at which the lines of a parsed text start, made once per parse. */
const lineStarts = new WeakMap<RootCstNode, Uint32Array>();

/** The line and column (UTF-16 units, as LSP counts) of `offset` in the text of `root`. */
export function positionIn(root: RootCstNode, offset: number): Position {
    let starts = lineStarts.get(root);
    if (!starts) lineStarts.set(root, (starts = lineStartsOf(root.fullText)));
    return positionFrom(starts, offset);
}

/**
 * A leaf in four fields (its container, grammar element, offset, and its length and token type in one number): its
 * range, text and root are computed when asked. Langium's leaf also stores the root, a Range and the hidden flag.
 */
class LeanLeaf implements LeafCstNode {
    private readonly lengthAndType: number;

    constructor(
        public container: CompositeCstNode,
        public grammarSource: FeatureOf,
        readonly offset: number,
        length: number,
        tokenType: TokenType,
    ) {
        this.lengthAndType = length * TYPES + registerTokenType(tokenType);
    }

    get length(): number {
        return Math.floor(this.lengthAndType / TYPES);
    }

    get tokenType(): TokenType {
        return tokenTypeAt(this.lengthAndType % TYPES);
    }

    get end(): number {
        return this.offset + this.length;
    }

    get hidden(): boolean {
        return false;
    }

    get root(): RootCstNode {
        return this.container.root;
    }

    get range(): Range {
        return { start: positionIn(this.root, this.offset), end: positionIn(this.root, this.end) };
    }

    get text(): string {
        return this.root.fullText.substring(this.offset, this.end);
    }

    get astNode(): AstNode {
        return this.container.astNode;
    }

    get element(): AstNode {
        return this.astNode;
    }

    get parent(): CompositeCstNode {
        return this.container;
    }

    get feature(): FeatureOf {
        return this.grammarSource;
    }
}

/** A token outside the grammar's rules (Langium adds comments itself, with its own leaves). */
class HiddenLeanLeaf extends LeanLeaf {
    override get hidden(): boolean {
        return true;
    }
}

/**
 * A composite node in four fields: its container, grammar element, AST node and children. Its root is found through
 * its containers (a few levels), its range from its first and last leaves, when asked. While it is open its children
 * are a growing array the parser pushes to; when it is finished (`construct`) a single child is kept alone, and more
 * are copied into an array of their exact size. `content` then gives the single child in a new array each time:
 * nothing changes a finished node (the grammar has no tree-rewriting actions; comments go into open nodes).
 */
class LeanComposite implements CompositeCstNode {
    container: CompositeCstNode | undefined = undefined;
    private _astNode: AstNode | undefined = undefined;
    private kids: CstNode[] | CstNode = [];

    constructor(public grammarSource: FeatureOf) {}

    /** Whether the node is its AST element's (else it is part of its container's element). */
    ownsElement(): boolean {
        return typeof this._astNode?.$type === 'string';
    }

    get content(): CstNode[] {
        const kids = this.kids;
        return Array.isArray(kids) ? kids : [kids];
    }

    /** Done: the children in the least memory. */
    finish(): void {
        const kids = this.kids as CstNode[];
        this.kids = kids.length === 1 ? kids[0] : exactChildren(kids);
    }

    get root(): RootCstNode {
        let node = this.container;
        if (!node) return this as unknown as RootCstNode; // detached: replaced by its child, it has no tree
        while (node.container) node = node.container;
        return node as RootCstNode;
    }

    get astNode(): AstNode {
        const node = typeof this._astNode?.$type === 'string' ? this._astNode : this.container?.astNode;
        if (!node) throw new Error('This node has no associated AST element');
        return node;
    }

    set astNode(value: AstNode | undefined) {
        this._astNode = value;
    }

    get offset(): number {
        return firstShown(this.content)?.offset ?? 0;
    }

    get end(): number {
        return lastShown(this.content)?.end ?? 0;
    }

    get length(): number {
        return this.end - this.offset;
    }

    get range(): Range {
        const first = firstShown(this.content);
        const last = lastShown(this.content);
        if (!first || !last) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
        const start = first.range.start;
        const end = last.range.end;
        return { start, end: end.line < start.line ? start : end };
    }

    get text(): string {
        return this.root.fullText.substring(this.offset, this.end);
    }

    get hidden(): boolean {
        return false;
    }

    get element(): AstNode {
        return this.astNode;
    }

    get parent(): CompositeCstNode | undefined {
        return this.container;
    }

    get feature(): FeatureOf {
        return this.grammarSource;
    }

    get children(): CstNode[] {
        return this.content;
    }
}

/**
 * A datatype rule's node whose only child is a terminal's token (an ID, a number) is replaced by that token, which
 * takes over its grammar element: 40 % of a chain's composite nodes were such wrappers. Langium finds a property's
 * node through the grammar element's assignment, which the token now names itself. Tokens of keywords stay wrapped,
 * so that a keyword is still found as a keyword. The detached node keeps the token: `standIn` gives it for the node.
 */
function collapseIntoToken(node: LeanComposite): void {
    const [token] = node.content;
    if (node.content.length !== 1 || !(token instanceof LeanLeaf) || token.hidden) return;
    const source = token.grammarSource;
    if (!GrammarAST.isRuleCall(source) || !GrammarAST.isTerminalRule(source.rule.ref)) return;
    replaceByChild(node, token);
}

/**
 * A rule that is a choice (`ChainMember: Instance | Connection | …`) makes a node whose only child is the chosen
 * rule's node, which Langium leaves without an AST node: the child takes over the element, its grammar element (the
 * choice's call, which names the assignment) and its place. A chain's members and a box's settings made 20 % of
 * the composite nodes this way.
 */
function collapseIntoAlternative(node: LeanComposite, element: AstNode): void {
    const [chosen] = node.content;
    if (node.content.length !== 1 || !(chosen instanceof LeanComposite) || chosen.ownsElement()) return;
    replaceByChild(node, chosen);
    chosen.astNode = element;
    (element as { $cstNode?: CstNode }).$cstNode = chosen;
}

/** `child` takes the just finished `node`'s place in its (open) parent and its grammar element; `node` is detached. */
function replaceByChild(node: LeanComposite, child: LeanLeaf | LeanComposite): void {
    const parent = node.container!;
    const siblings = parent.content;
    siblings[siblings.lastIndexOf(node)] = child;
    child.container = parent;
    child.grammarSource = node.grammarSource;
    node.container = undefined;
}

/** The node that stands for `node` in the tree: its only child if it was replaced by it, else itself. */
export function standIn(node: CstNode | undefined): CstNode | undefined {
    if (node instanceof LeanComposite && node.container === undefined) return node.content[0];
    return node;
}

/** The first child that is not a comment (Langium's rule: the first child if all are). */
function firstShown(children: readonly CstNode[]): CstNode | undefined {
    return children.find(child => !child.hidden) ?? children[0];
}

function lastShown(children: readonly CstNode[]): CstNode | undefined {
    for (let i = children.length - 1; i >= 0; i--) if (!children[i].hidden) return children[i];
    return children[children.length - 1];
}

/** Children of a finished composite node in a plain array of their exact size (a pushed-to array has spare room). */
function exactChildren(children: readonly CstNode[]): CstNode[] {
    const exact = new Array<CstNode>(children.length);
    for (let i = 0; i < children.length; i++) exact[i] = children[i];
    return exact;
}

/** The root's children are Langium's own container, which sets each child's container; elsewhere the builder does. */
function adopt(parent: CompositeCstNode, child: LeanLeaf | LeanComposite): void {
    parent.content.push(child);
    child.container = parent;
}

export class LeanCstNodeBuilder extends CstNodeBuilder {
    override buildCompositeNode(feature: FeatureOf): CompositeCstNode {
        const node = new LeanComposite(feature);
        adopt(this.current, node);
        (this as unknown as { nodeStack: CompositeCstNode[] }).nodeStack.push(node);
        return node;
    }

    override buildLeafNode(token: Parameters<CstNodeBuilder['buildLeafNode']>[0], feature?: FeatureOf) {
        const parent = this.current;
        const Leaf = feature ? LeanLeaf : HiddenLeanLeaf;
        const length = token.endOffset! - token.startOffset + 1; // not image.length: a lean token makes its image
        const leaf = new Leaf(parent, feature, token.startOffset, length, token.tokenType);
        adopt(parent, leaf);
        return leaf;
    }

    /**
     * Comments before a token go into the open node that gets the token, or before the newest node that has content
     * (Langium's rule). The search is skipped when no comment precedes the token: it is linear in the chain's size.
     */
    override addHiddenNodes(tokens: HiddenTokens): void {
        if (tokens.length === 0) return;
        const leaves = tokens.map(token => {
            const length = token.endOffset! - token.startOffset + 1;
            return new HiddenLeanLeaf(this.current, undefined, token.startOffset, length, token.tokenType);
        });
        let current: CompositeCstNode = this.current;
        if (current.content.length > 0) return this.insert(current, current.content.length, leaves);
        while (current.container) {
            const index = current.container.content.indexOf(current);
            if (index > 0) return this.insert(current.container, index, leaves);
            current = current.container;
        }
        this.insert(this.root(), 0, leaves);
    }

    private insert(parent: CompositeCstNode, index: number, leaves: LeanLeaf[]): void {
        parent.content.splice(index, 0, ...leaves);
        for (const leaf of leaves) leaf.container = parent;
    }

    override construct(item: Constructed): void {
        const node: CompositeCstNode = this.current;
        super.construct(item);
        if (!(node instanceof LeanComposite) || node.content.length === 0) return;
        node.finish();
        // a datatype rule's node (a name, a reference, a number) is no AST node: its one token can stand for it
        if (typeof item.$type !== 'string') collapseIntoToken(node);
        else collapseIntoAlternative(node, item as AstNode);
    }

    private root(): RootCstNode {
        return (this as unknown as { rootNode: RootCstNode }).rootNode;
    }
}
