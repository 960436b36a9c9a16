/**
 * A cross-reference as a class. Langium's linker builds each one as an object literal with three getters (three
 * closures each) and then adds `_ref` and `_nodeDescription` to it, which turns it into a slow dictionary object: in
 * a 10,000-box chain its 50,000 references took 30 MB, a quarter of the model's memory. Here the getters are on the
 * prototype and the fields exist from the start. The resolution is Langium's own (DefaultLinker.buildReference).
 */
import {
    AstUtils,
    GrammarAST,
    DocumentState,
    isAstNode,
    isAstNodeDescription,
    isLinkingError,
    type AstNode,
    type AstNodeDescription,
    type CstNode,
    type LinkingError,
    type Reference,
    type ReferenceInfo,
} from 'langium';

/** The linker's parts a reference resolves itself with (protected in DefaultLinker). */
export interface ReferenceResolver {
    loadAstNode(description: AstNodeDescription): AstNode | undefined;
    createLinkingError(info: ReferenceInfo, description?: AstNodeDescription): LinkingError;
    getLinkedNode(info: ReferenceInfo): { node?: AstNode; descr?: AstNodeDescription; error?: LinkingError };
    pathOf(node: AstNode): string;
}

const RESOLVING = Symbol('resolving');

export abstract class ChainReference implements Reference {
    /** The target, a linking error, a resolution under way (a symbol: Langium's linker sets its own) or not yet. */
    _ref: AstNode | LinkingError | symbol | undefined = undefined;
    _nodeDescription: AstNodeDescription | undefined = undefined;

    constructor(readonly $refNode: CstNode | undefined) {}

    /** The linker's parts, the same for every reference of one linker (on the prototype: not a field each). */
    protected abstract get resolver(): ReferenceResolver;

    /** The AST node that holds the reference. */
    protected abstract get container(): AstNode;

    /** The property of `container` that holds it. */
    protected abstract get property(): string;

    /** The name as written. */
    abstract get $refText(): string;

    get ref(): AstNode | undefined {
        if (isAstNode(this._ref)) return this._ref; // the most frequent case: resolved before
        const info: ReferenceInfo = { reference: this, container: this.container, property: this.property };
        if (isAstNodeDescription(this._nodeDescription)) {
            // a candidate was found before, in a document not loaded then
            this._ref =
                this.resolver.loadAstNode(this._nodeDescription) ??
                this.resolver.createLinkingError(info, this._nodeDescription);
        } else if (this._ref === undefined) {
            this._ref = RESOLVING;
            const document = AstUtils.findRootNode(this.container).$document;
            const found = this.resolver.getLinkedNode(info);
            if (found.error && document && document.state < DocumentState.ComputedScopes) {
                this._ref = undefined; // the scopes are not ready: the linker tries again later
                return undefined;
            }
            this._ref = found.node ?? found.error;
            this._nodeDescription = found.descr;
            document?.references.push(this);
        } else if (typeof this._ref === 'symbol') {
            const where = `${this.resolver.pathOf(this.container)}/${this.property}`;
            throw new Error(`Cyclic reference resolution detected: ${where} (symbol '${this.$refText}')`);
        }
        return isAstNode(this._ref) ? this._ref : undefined;
    }

    get $nodeDescription(): AstNodeDescription | undefined {
        return this._nodeDescription;
    }

    get error(): LinkingError | undefined {
        return isLinkingError(this._ref) ? this._ref : undefined;
    }
}

/** The property a reference's node is assigned to, from its grammar element (a cross-reference in an assignment). */
function assignedProperty(node: CstNode): string | undefined {
    return AstUtils.getContainerOfType(node.grammarSource, GrammarAST.isAssignment)?.feature;
}

export type ReferenceFactory = (
    container: AstNode,
    property: string,
    refNode: CstNode | undefined,
    refText: string,
) => ChainReference;

/**
 * References that resolve themselves with `resolver`. One in the tree (the parser's) reads its text, its container
 * and its property from its node: a large model has hundreds of thousands, and each kept a copy of its name.
 */
export function referenceFactory(resolver: ReferenceResolver): ReferenceFactory {
    class InTree extends ChainReference {
        declare readonly $refNode: CstNode;

        protected override get resolver(): ReferenceResolver {
            return resolver;
        }

        protected override get container(): AstNode {
            return this.$refNode.astNode;
        }

        protected override get property(): string {
            return assignedProperty(this.$refNode) ?? '';
        }

        override get $refText(): string {
            return this.$refNode.text;
        }
    }
    class Written extends ChainReference {
        constructor(
            protected override readonly container: AstNode,
            protected override readonly property: string,
            refNode: CstNode | undefined,
            private readonly text: string,
        ) {
            super(refNode);
        }

        protected override get resolver(): ReferenceResolver {
            return resolver;
        }

        override get $refText(): string {
            return this.text;
        }
    }
    // the parser's node is under the container's node once the container is built (it is not yet, here)
    return (container, property, refNode, refText) =>
        refNode?.text === refText && assignedProperty(refNode) === property
            ? new InTree(refNode)
            : new Written(container, property, refNode, refText);
}
