/**
 * A cross-reference as a class. Langium's linker builds each one as an object literal with three getters (three
 * closures each) and then adds `_ref` and `_nodeDescription` to it, which turns it into a slow dictionary object: in
 * a 10,000-box chain its 50,000 references took 30 MB, a quarter of the model's memory. Here the getters are on the
 * prototype and the fields exist from the start. The resolution is Langium's own (DefaultLinker.buildReference).
 */
import {
    AstUtils,
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

export class ChainReference implements Reference {
    /** The target, a linking error, a resolution under way (a symbol: Langium's linker sets its own) or not yet. */
    _ref: AstNode | LinkingError | symbol | undefined = undefined;
    _nodeDescription: AstNodeDescription | undefined = undefined;
    readonly #resolver: ReferenceResolver;
    readonly #container: AstNode;
    readonly #property: string;

    constructor(
        resolver: ReferenceResolver,
        container: AstNode,
        property: string,
        readonly $refNode: CstNode | undefined,
        readonly $refText: string,
    ) {
        this.#resolver = resolver;
        this.#container = container;
        this.#property = property;
    }

    get ref(): AstNode | undefined {
        if (isAstNode(this._ref)) return this._ref; // the most frequent case: resolved before
        const info: ReferenceInfo = { reference: this, container: this.#container, property: this.#property };
        if (isAstNodeDescription(this._nodeDescription)) {
            // a candidate was found before, in a document not loaded then
            this._ref =
                this.#resolver.loadAstNode(this._nodeDescription) ??
                this.#resolver.createLinkingError(info, this._nodeDescription);
        } else if (this._ref === undefined) {
            this._ref = RESOLVING;
            const document = AstUtils.findRootNode(this.#container).$document;
            const found = this.#resolver.getLinkedNode(info);
            if (found.error && document && document.state < DocumentState.ComputedScopes) {
                this._ref = undefined; // the scopes are not ready: the linker tries again later
                return undefined;
            }
            this._ref = found.node ?? found.error;
            this._nodeDescription = found.descr;
            document?.references.push(this);
        } else if (typeof this._ref === 'symbol') {
            const where = `${this.#resolver.pathOf(this.#container)}/${this.#property}`;
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
