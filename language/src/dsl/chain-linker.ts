/**
 * Linking errors that help: an unknown name suggests close ones ("did you mean", also offered as quick
 * fixes) or else lists what is known there, and a port of an unknown instance is not
 * reported twice (the instance's or its box's error says it all); no syntax errors that only follow from
 * another. Also: linking and the node checks in one synchronous pass each.
 */
import {
    AstUtils,
    Cancellation,
    DefaultDocumentValidator,
    DefaultLinker,
    DocumentValidator,
    interruptAndCheck,
    type AstNode,
    type AstNodeDescription,
    type AstReflection,
    type CstNode,
    type LangiumDocument,
    type LinkingError,
    type ParseResult,
    type Reference,
    type ReferenceInfo,
    type ValidationAcceptor,
    type ValidationCheck,
    type ValidationOptions,
} from 'langium';
import type { Diagnostic } from 'vscode-languageserver';
import { isPortRef } from '../generated/ast.js';
import { closeNames, quotedAlternatives } from './close-names.js';
import { boxPorts } from './model-util.js';
import { lexerErrorsWithoutFollowUps, parserErrorsWithoutFollowUps } from './syntax-error-messages.js';
import { keywordTyposOf } from './keyword-typos.js';
import { standIn } from './lean-cst.js';
import { referenceFactory, type ChainReference, type ReferenceResolver } from './chain-reference.js';

/** How many AST nodes the one-pass loops handle between two checks for cancellation. */
export const NODES_PER_CANCEL_CHECK = 2000;

export class ChainLinker extends DefaultLinker {
    override buildReference(node: AstNode, property: string, refNode: CstNode | undefined, refText: string): Reference {
        return this.newReference(node, property, standIn(refNode), refText);
    }

    /** Fields set back, not deleted: a deleted field turns every reference into a slow dictionary object. */
    override unlink(document: LangiumDocument): void {
        for (const reference of document.references as ChainReference[]) {
            reference._ref = undefined;
            reference._nodeDescription = undefined;
        }
        document.references = [];
    }

    private readonly resolver: ReferenceResolver = {
        loadAstNode: description => this.loadAstNode(description),
        createLinkingError: (info, description) => this.createLinkingError(info, description),
        getLinkedNode: info => this.getLinkedNode(info),
        pathOf: node => this.astNodeLocator.getAstNodePath(node),
    };

    private readonly newReference = referenceFactory(this.resolver);

    /**
     * Langium's link awaits a cancellation check for every AST node (a promise and a microtask each, a
     * third of linking a 2,000-box chain); here the loop is synchronous and checks every few thousand nodes.
     */
    override async link(
        document: LangiumDocument,
        cancelToken: Cancellation.CancellationToken = Cancellation.CancellationToken.None,
    ): Promise<void> {
        let count = 0;
        for (const node of AstUtils.streamAst(document.parseResult.value)) {
            if (++count % NODES_PER_CANCEL_CHECK === 0) await interruptAndCheck(cancelToken);
            for (const reference of AstUtils.streamReferences(node)) this.doLink(reference, document);
        }
    }

    override createLinkingError(
        refInfo: ReferenceInfo,
        targetDescription?: AstNodeDescription,
    ): SuggestingLinkingError {
        const error = super.createLinkingError(refInfo, targetDescription);
        if (targetDescription) return error; // found, but its node could not be loaded: Langium's message says so
        const name = refInfo.reference.$refText;
        if (isPortRef(refInfo.container) && refInfo.property === 'port') {
            const instance = refInfo.container.instance?.ref;
            const box = instance?.box?.ref;
            if (!instance || !box) return error; // the instance's (or its box's) error says it all
            const ports = boxPorts(box).filter(p => p.name);
            // `a.o -> b.i`: outputs on the left, inputs on the right (all ports if none fits)
            const side = refInfo.container.$containerProperty === 'to' ? 'in' : 'out';
            const fitting = ports.filter(p => p.direction === side);
            const suggestions = closeNames(
                name,
                (fitting.length > 0 ? fitting : ports).map(p => p.name),
            );
            const owner = `Box '${box.name}' (instance '${instance.name}') has no port '${name}'`;
            return suggestions.length > 0
                ? { ...error, message: `${owner}; did you mean ${quotedAlternatives(suggestions)}?`, suggestions }
                : {
                      ...error,
                      message: `${owner}; its ports: ${ports.map(p => `${p.direction} ${p.name}`).join(', ') || 'none'}.`,
                  };
        }
        const [what, whats] = REFERENCED[referenceType(this.reflection, refInfo)] ?? ['element', 'elements'];
        const known = this.scopeProvider
            .getScope(refInfo)
            .getAllElements()
            .map(d => d.name)
            .filter(n => n !== name)
            .toArray();
        const suggestions = closeNames(name, known);
        const unknown = `Unknown ${what} '${name}'`;
        if (suggestions.length > 0)
            return { ...error, message: `${unknown}; did you mean ${quotedAlternatives(suggestions)}?`, suggestions };
        if (known.length === 0) return { ...error, message: `${unknown}; there are no ${whats} here.` };
        if (known.length <= 30) return { ...error, message: `${unknown}; known ${whats}: ${known.join(', ')}.` };
        return { ...error, message: `${unknown}.` };
    }
}

function referenceType(reflection: AstReflection, refInfo: ReferenceInfo): string {
    try {
        return reflection.getReferenceType(refInfo);
    } catch {
        return ''; // a recovered node of a half-typed model may lack the property
    }
}

/** How messages name what a reference points to: singular and plural. */
const REFERENCED: Readonly<Record<string, readonly [string, string]>> = {
    Box: ['box', 'boxes'],
    ImageType: ['image type', 'image types'],
    Instance: ['instance', 'instances'],
    Platform: ['platform', 'platforms'],
    Chain: ['chain', 'chains'],
    Throttle: ['throttle', 'throttles'],
};

/** A linking error with the close names that the did-you-mean quick fix offers. */
export interface SuggestingLinkingError extends LinkingError {
    suggestions?: string[];
}

export class ChainDocumentValidator extends DefaultDocumentValidator {
    /**
     * The node checks in one synchronous pass (checks looked up once per node type), yielding for
     * cancellation every few thousand nodes. Langium's default makes one async task per node, which is
     * a third of the validation time of a 2,000-box chain.
     */
    protected override async validateAstNodes(
        rootNode: AstNode,
        options: ValidationOptions,
        acceptor: ValidationAcceptor,
        cancelToken: Cancellation.CancellationToken = Cancellation.CancellationToken.None,
    ): Promise<void> {
        // arrays, not the registry's streams: a stream is walked again (and allocates) for every node
        const checksByType = new Map<string, ValidationCheck[]>();
        const pending: Array<Promise<unknown>> = [];
        let count = 0;
        for (const node of AstUtils.streamAst(rootNode)) {
            if (++count % NODES_PER_CANCEL_CHECK === 0) await interruptAndCheck(cancelToken);
            let checks = checksByType.get(node.$type);
            if (!checks)
                checksByType.set(
                    node.$type,
                    (checks = this.validationRegistry.getChecks(node.$type, options.categories).toArray()),
                );
            for (const check of checks) {
                const result = check(node, acceptor, cancelToken) as unknown;
                if (result instanceof Promise) pending.push(result);
            }
        }
        await Promise.all(pending);
    }

    /**
     * Langium's, without the errors that only follow from another (syntax-error-messages.ts), and with the keywords
     * a misspelt word may mean in the diagnostic's data (keyword-typos.ts), for the did-you-mean quick fix.
     */
    protected override processParsingErrors(
        parseResult: ParseResult,
        diagnostics: Diagnostic[],
        options: ValidationOptions,
    ): void {
        const errors = parserErrorsWithoutFollowUps(parseResult);
        const first = diagnostics.length;
        super.processParsingErrors({ ...parseResult, parserErrors: errors }, diagnostics, options);
        // Langium adds one diagnostic per error, in order
        errors.forEach((error, i) => {
            const suggestions = keywordTyposOf(error.token);
            const diagnostic = diagnostics[first + i];
            if (suggestions.length > 0 && diagnostic)
                diagnostic.data = { ...(diagnostic.data as object), suggestions, refText: error.token.image };
        });
    }

    protected override processLexingErrors(
        parseResult: ParseResult,
        diagnostics: Diagnostic[],
        options: ValidationOptions,
    ): void {
        super.processLexingErrors(
            { ...parseResult, lexerErrors: lexerErrorsWithoutFollowUps(parseResult) },
            diagnostics,
            options,
        );
    }

    /**
     * Langium's, plus the close names in the diagnostic's data (for the quick fix), and without `inst.port`
     * errors whose instance (or its box) did not resolve: that error says it all.
     */
    protected override processLinkingErrors(document: LangiumDocument, diagnostics: Diagnostic[]): void {
        for (const reference of document.references) {
            const error: SuggestingLinkingError | undefined = reference.error;
            if (!error) continue;
            if (
                isPortRef(error.container) &&
                error.property === 'port' &&
                error.container.instance?.ref?.box?.ref === undefined
            )
                continue;
            diagnostics.push(
                this.toDiagnostic('error', error.message, {
                    node: error.container,
                    property: error.property,
                    index: error.index,
                    data: {
                        code: DocumentValidator.LinkingError,
                        containerType: error.container.$type,
                        property: error.property,
                        refText: error.reference.$refText,
                        suggestions: error.suggestions,
                    },
                }),
            );
        }
    }
}
