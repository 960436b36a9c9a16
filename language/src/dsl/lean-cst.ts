/**
 * The syntax tree (CST) Langium builds, in less memory: a model near the 4 MiB limit made ~1.3 million CST nodes,
 * and two habits of Langium 3.5's builder cost most of their bytes:
 * - every leaf stores its range as three objects (a Range and two Positions, ~120 bytes) although the editor asks
 *   for few of them: here a leaf computes its range from its offset when asked (a binary search in the line starts
 *   of its document, made once per parse);
 * - every composite node's children live in an array grown by `push`, which V8 gives room for 17 elements at the
 *   first push (~150 bytes for one child, the common case: a cross-reference, a name): here a finished node's
 *   children are copied into an array of their exact size.
 * It also skips Langium's search for a node's position in its parent when no comment precedes a token: that search
 * is linear in the chain's size, so parsing grew quadratically (4,000 boxes: parse 500 → 270 ms).
 */
import { CstNodeBuilder, LeafCstNodeImpl, type CompositeCstNode, type CstNode, type RootCstNode } from 'langium';
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

/** A leaf whose range is computed when asked, not stored. */
class LazyRangeLeaf extends LeafCstNodeImpl {
    constructor(offset: number, length: number, tokenType: TokenType, hidden: boolean) {
        super(offset, length, undefined as unknown as Range, tokenType, hidden);
    }

    override get range(): Range {
        return { start: positionIn(this.root, this.offset), end: positionIn(this.root, this.end) };
    }
}

/** Children of a finished composite node, in an array of their exact size; what is added later gets its container. */
function exactChildren(owner: CompositeCstNode, children: readonly CstNode[]): ExactChildren {
    const exact = new ExactChildren(children.length);
    for (let i = 0; i < children.length; i++) exact[i] = children[i];
    exact.owner = owner;
    return exact;
}

class ExactChildren extends Array<CstNode> {
    declare owner: CompositeCstNode;

    /** `filter`, `slice` and `map` make plain arrays: a copy adopts nothing. */
    static override get [Symbol.species](): ArrayConstructor {
        return Array;
    }

    override push(...items: CstNode[]): number {
        this.adopt(items);
        return super.push(...items);
    }

    override unshift(...items: CstNode[]): number {
        this.adopt(items);
        return super.unshift(...items);
    }

    override splice(start: number, deleteCount = this.length - start, ...items: CstNode[]): CstNode[] {
        this.adopt(items);
        return super.splice(start, deleteCount, ...items);
    }

    private adopt(items: CstNode[]): void {
        for (const item of items) (item as { container?: CompositeCstNode }).container = this.owner;
    }
}

export class LeanCstNodeBuilder extends CstNodeBuilder {
    override buildLeafNode(token: Parameters<CstNodeBuilder['buildLeafNode']>[0], feature?: FeatureOf) {
        const leaf = new LazyRangeLeaf(token.startOffset, token.image.length, token.tokenType, !feature);
        leaf.grammarSource = feature;
        leaf.root = this.root();
        this.current.content.push(leaf);
        return leaf;
    }

    override addHiddenNodes(tokens: HiddenTokens): void {
        if (tokens.length > 0) super.addHiddenNodes(tokens);
    }

    override construct(item: Constructed): void {
        const node: CompositeCstNode = this.current;
        super.construct(item);
        if (node.content.length > 0 && node !== this.root())
            (node as { content: CstNode[] }).content = exactChildren(node, node.content);
    }

    private root(): RootCstNode {
        return (this as unknown as { rootNode: RootCstNode }).rootNode;
    }
}
