/**
 * Scoping: a .chain file is self-contained (no cross-file exports, so two
 * sample files may both define `Detector`), and `inst.port` resolves the port
 * among the ports of the instance's box.
 *
 * Scopes are hash maps, built once per container and reference type and kept
 * as long as the document's computed scopes: Langium's default scopes search
 * their elements linearly for every reference, which made linking a
 * 2,000-box chain quadratic (every `n123.o` scanned all instances, every
 * `n: Box` all boxes; bench/language/bench-language.mjs).
 */
import {
    AstUtils,
    Cancellation,
    DefaultScopeComputation,
    DefaultScopeProvider,
    EMPTY_SCOPE,
    interruptAndCheck,
    MultiMap,
    stream,
    type AstNode,
    type AstNodeDescription,
    type LangiumDocument,
    type PrecomputedScopes,
    type ReferenceInfo,
    type Scope,
    type Stream,
} from 'langium';
import { isPortRef, type Box } from '../generated/ast.js';
import { NODES_PER_CANCEL_CHECK } from './chain-linker.js';
import { boxPorts } from './model-util.js';

export class ChainScopeComputation extends DefaultScopeComputation {
    override computeExports(_document: LangiumDocument): Promise<AstNodeDescription[]> {
        return Promise.resolve([]);
    }

    /** As Langium's, with a cancellation check every few thousand nodes instead of an await per node. */
    override async computeLocalScopes(
        document: LangiumDocument,
        cancelToken: Cancellation.CancellationToken = Cancellation.CancellationToken.None,
    ): Promise<PrecomputedScopes> {
        const scopes = new MultiMap<AstNode, AstNodeDescription>();
        let count = 0;
        for (const node of AstUtils.streamAllContents(document.parseResult.value)) {
            if (++count % NODES_PER_CANCEL_CHECK === 0) await interruptAndCheck(cancelToken);
            this.processNode(node, document, scopes);
        }
        return scopes;
    }
}

/**
 * The names one container declares for one reference type; the first of a repeated name wins, as in Langium's
 * StreamScope.
 */
type Layer = ReadonlyMap<string, AstNodeDescription>;

function layerOf(
    descriptions: Iterable<AstNodeDescription>,
    accept: (d: AstNodeDescription) => boolean = () => true,
): Layer {
    const layer = new Map<string, AstNodeDescription>();
    for (const description of descriptions) {
        if (!layer.has(description.name) && accept(description)) layer.set(description.name, description);
    }
    return layer;
}

/** Nested local scopes (innermost first) over an outer scope, each looked up in O(1). */
class LayeredScope implements Scope {
    constructor(
        private readonly layers: readonly Layer[],
        private readonly outer: Scope,
    ) {}

    getElement(name: string): AstNodeDescription | undefined {
        for (const layer of this.layers) {
            const found = layer.get(name);
            if (found) return found;
        }
        return this.outer.getElement(name);
    }

    getAllElements(): Stream<AstNodeDescription> {
        return stream(this.layers.flatMap(layer => [...layer.values()])).concat(this.outer.getAllElements());
    }
}

export class ChainScopeProvider extends DefaultScopeProvider {
    /**
     * Layers by computed scopes (replaced whenever the document's scopes are recomputed), container and reference type.
     */
    private readonly layers = new WeakMap<PrecomputedScopes, Map<AstNode, Map<string, Layer>>>();
    /** The ports of a box, by box node (a new parse makes new nodes). */
    private readonly portScopes = new WeakMap<Box, Scope>();

    override getScope(context: ReferenceInfo): Scope {
        if (isPortRef(context.container) && context.property === 'port') {
            const box = context.container.instance?.ref?.box?.ref;
            return box ? this.portScope(box) : EMPTY_SCOPE;
        }
        let referenceType: string;
        try {
            referenceType = this.reflection.getReferenceType(context);
        } catch {
            // Completion in a half-typed model may ask for a property the recovered node does not have
            // (`Depends:type` when `in i: Frame` became `in i: depends`): nothing is in scope there.
            return EMPTY_SCOPE;
        }
        const global = this.getGlobalScope(referenceType, context);
        const precomputed = AstUtils.getDocument(context.container).precomputedScopes;
        if (!precomputed) return global;
        const layers: Layer[] = [];
        for (let node: AstNode | undefined = context.container; node; node = node.$container) {
            // most containers (ports, connections) declare nothing: no layer to build
            if (!precomputed.has(node)) continue;
            const layer = this.layer(precomputed, node, referenceType);
            if (layer.size > 0) layers.push(layer);
        }
        return new LayeredScope(layers, global);
    }

    private layer(precomputed: PrecomputedScopes, node: AstNode, referenceType: string): Layer {
        let byNode = this.layers.get(precomputed);
        if (!byNode) this.layers.set(precomputed, (byNode = new Map<AstNode, Map<string, Layer>>()));
        let byType = byNode.get(node);
        if (!byType) byNode.set(node, (byType = new Map<string, Layer>()));
        let layer = byType.get(referenceType);
        if (!layer) {
            layer = layerOf(precomputed.get(node), d => this.reflection.isSubtype(d.type, referenceType));
            byType.set(referenceType, layer);
        }
        return layer;
    }

    private portScope(box: Box): Scope {
        let scope = this.portScopes.get(box);
        if (!scope) {
            const descriptions = boxPorts(box)
                .filter(p => p.name)
                .map(p => this.descriptions.createDescription(p, p.name));
            scope = new LayeredScope([layerOf(descriptions)], EMPTY_SCOPE);
            this.portScopes.set(box, scope);
        }
        return scope;
    }
}
