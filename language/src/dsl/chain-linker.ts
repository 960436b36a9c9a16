/**
 * Linking errors that help: an unknown port names the box's ports, an unknown
 * element lists what the file has, and a port of an unknown instance is not
 * reported twice (the instance's or its box's error says it all). Also: linking and the node checks in one
 * synchronous pass each.
 */
import {
    AstUtils, Cancellation, DefaultDocumentValidator, DefaultLinker, interruptAndCheck,
    type AstNode, type AstNodeDescription, type LangiumDocument, type LinkingError, type ReferenceInfo, type ValidationAcceptor, type ValidationCheck,
    type ValidationOptions,
} from 'langium';
import type { Diagnostic } from 'vscode-languageserver';
import { isPortRef } from '../generated/ast.js';
import { boxPorts } from './model-util.js';

/** How many AST nodes the one-pass loops handle between two checks for cancellation. */
export const NODES_PER_CANCEL_CHECK = 2000;

export class ChainLinker extends DefaultLinker {
    /**
     * Langium's link awaits a cancellation check for every AST node (a promise and a microtask each, a
     * third of linking a 2,000-box chain); here the loop is synchronous and checks every few thousand nodes.
     */
    override async link(document: LangiumDocument, cancelToken: Cancellation.CancellationToken = Cancellation.CancellationToken.None): Promise<void> {
        let count = 0;
        for (const node of AstUtils.streamAst(document.parseResult.value)) {
            if (++count % NODES_PER_CANCEL_CHECK === 0) await interruptAndCheck(cancelToken);
            for (const reference of AstUtils.streamReferences(node)) this.doLink(reference, document);
        }
    }

    override createLinkingError(refInfo: ReferenceInfo, targetDescription?: AstNodeDescription): LinkingError {
        const error = super.createLinkingError(refInfo, targetDescription);
        const name = refInfo.reference.$refText;
        if (isPortRef(refInfo.container) && refInfo.property === 'port') {
            const instance = refInfo.container.instance?.ref;
            const box = instance?.box?.ref;
            if (instance && box) {
                const ports = boxPorts(box).filter(p => p.name).map(p => `${p.direction} ${p.name}`);
                return { ...error, message: `Box '${box.name}' (instance '${instance.name}') has no port '${name}'; its ports: ${ports.join(', ') || 'none'}.` };
            }
            return error;
        }
        const candidates = this.scopeProvider.getScope(refInfo).getAllElements().map(d => d.name).filter(n => n !== name).toArray();
        if (candidates.length > 0 && candidates.length <= 30) {
            return { ...error, message: `${error.message} Known here: ${candidates.join(', ')}.` };
        }
        return error;
    }
}

export class ChainDocumentValidator extends DefaultDocumentValidator {
    /**
     * The node checks in one synchronous pass (checks looked up once per node type), yielding for
     * cancellation every few thousand nodes. Langium's default makes one async task per node, which is
     * a third of the validation time of a 2,000-box chain.
     */
    protected override async validateAstNodes(rootNode: AstNode, options: ValidationOptions, acceptor: ValidationAcceptor,
        cancelToken: Cancellation.CancellationToken = Cancellation.CancellationToken.None): Promise<void> {
        // arrays, not the registry's streams: a stream is walked again (and allocates) for every node
        const checksByType = new Map<string, ValidationCheck[]>();
        const pending: Array<Promise<unknown>> = [];
        let count = 0;
        for (const node of AstUtils.streamAst(rootNode)) {
            if (++count % NODES_PER_CANCEL_CHECK === 0) await interruptAndCheck(cancelToken);
            let checks = checksByType.get(node.$type);
            if (!checks) checksByType.set(node.$type, (checks = this.validationRegistry.getChecks(node.$type, options.categories).toArray()));
            for (const check of checks) {
                const result = check(node, acceptor, cancelToken) as unknown;
                if (result instanceof Promise) pending.push(result);
            }
        }
        await Promise.all(pending);
    }

    protected override processLinkingErrors(document: LangiumDocument, diagnostics: Diagnostic[], options: ValidationOptions): void {
        const before = diagnostics.length;
        super.processLinkingErrors(document, diagnostics, options);
        // Drop `inst.port` errors whose instance (or the instance's box) did not resolve: that error says it all.
        const unresolvedInstancePorts = new Set(document.references
            .filter(r => r.error && isPortRef(r.error.container) && r.error.property === 'port' && r.error.container.instance?.ref?.box?.ref === undefined)
            .map(r => r.$refNode?.range.start.line + ':' + r.$refNode?.range.start.character));
        const kept = diagnostics.slice(before).filter(d => !unresolvedInstancePorts.has(d.range.start.line + ':' + d.range.start.character));
        diagnostics.splice(before, diagnostics.length - before, ...kept);
    }
}
