/**
 * The syntax tree (CST) Langium builds, in less memory: a model near the 4 MiB limit made ~1.3 million CST nodes,
 * and two habits of Langium 3.5's builder cost most of their bytes:
 * - every leaf stores its range as three objects (a Range and two Positions, ~120 bytes) although the editor asks
 *   for few of them, and its root: here a leaf has five fields and computes its range from its offset when asked (a
 *   binary search in the line starts of its document, made once per parse);
 * - every composite node's children live in an array grown by `push`, which V8 gives room for 17 elements at the
 *   first push (~150 bytes for one child, the common case: a cross-reference, a name): here a finished node's
 *   children are copied into a plain array of their exact size.
 * It also skips Langium's search for a node's position in its parent when no comment precedes a token: that search
 * is linear in the chain's size, so parsing grew quadratically (4,000 boxes: parse 500 → 270 ms).
 */
import {
    CstNodeBuilder,
    type AstNode,
    type CompositeCstNode,
    type CstNode,
    type LeafCstNode,
    type RootCstNode,
} from 'langium';
import type { TokenType } from 'chevrotain';
import type { Position, Range } from 'vscode-languageserver';

type Constructed = Parameters<CstNodeBuilder['construct']>[0];
type HiddenTokens = Parameters<CstNodeBuilder['addHiddenNodes']>[0];
type FeatureOf = Parameters<CstNodeBuilder['buildLeafNode']>[1];

/** The offsets at which the lines of a parsed text start (chevrotain's line terminators: \n, \r\n, \r). */
const lineStarts = new WeakMap<RootCstNode, Uint32Array>();

function startsOf(root: RootCstNode): Uint32Array {
    let starts = lineStarts.get(root);
    if (starts) return starts;
    const text = root.fullText;
    const found = [0];
    for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) found.push(i + 1);
    }
    starts = Uint32Array.from(found);
    lineStarts.set(root, starts);
    return starts;
}

/** The line and column (UTF-16 units, as LSP counts) of `offset` in the text of `root`. */
export function positionIn(root: RootCstNode, offset: number): Position {
    const starts = startsOf(root);
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
        const middle = (low + high + 1) >> 1;
        if (starts[middle] <= offset) low = middle;
        else high = middle - 1;
    }
    return { line: low, character: offset - starts[low] };
}

/**
 * A leaf in five fields (its container, grammar element, offset, length and token type): its range, text and root
 * are computed when asked. Langium's leaf also stores the root, a Range and the hidden flag.
 */
class LeanLeaf implements LeafCstNode {
    constructor(
        public container: CompositeCstNode,
        readonly grammarSource: FeatureOf,
        readonly offset: number,
        readonly length: number,
        readonly tokenType: TokenType,
    ) {}

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
 * Children of a finished composite node, in a plain array of their exact size. Nothing adds children to a finished
 * node: the parser adds only to open ones (Langium's tree-rewriting actions and comments included).
 */
function exactChildren(children: readonly CstNode[]): CstNode[] {
    const exact = new Array<CstNode>(children.length);
    for (let i = 0; i < children.length; i++) exact[i] = children[i];
    return exact;
}

export class LeanCstNodeBuilder extends CstNodeBuilder {
    override buildLeafNode(token: Parameters<CstNodeBuilder['buildLeafNode']>[0], feature?: FeatureOf) {
        const parent = this.current;
        const Leaf = feature ? LeanLeaf : HiddenLeanLeaf;
        const leaf = new Leaf(parent, feature, token.startOffset, token.image.length, token.tokenType);
        parent.content.push(leaf);
        return leaf;
    }

    override addHiddenNodes(tokens: HiddenTokens): void {
        if (tokens.length > 0) super.addHiddenNodes(tokens);
    }

    override construct(item: Constructed): void {
        const node: CompositeCstNode = this.current;
        super.construct(item);
        if (node.content.length > 0 && node !== this.root())
            (node as { content: CstNode[] }).content = exactChildren(node.content);
    }

    private root(): RootCstNode {
        return (this as unknown as { rootNode: RootCstNode }).rootNode;
    }
}
