/**
 * Outline (document symbols): the elements of a file, with the ports of each
 * box, the instances of each chain and the components of each ptts as children.
 * A short detail line says what each symbol is (kernel, image, period …).
 */
import type { DocumentSymbolProvider, LangiumServices } from 'langium/lsp';
import type { AstNode, LangiumDocument, MaybePromise, NameProvider } from 'langium';
import { SymbolKind, type DocumentSymbol, type DocumentSymbolParams } from 'vscode-languageserver';
import {
    isBox,
    isChain,
    isImageType,
    isPlatform,
    isPtts,
    isTarget,
    isThrottle,
    type Model,
} from '../../generated/ast.js';
import {
    boxKernelName,
    chainInstances,
    componentPeriod,
    platformCores,
    pttsComponents,
    boxPorts,
} from '../model-util.js';

export class ChainDocumentSymbolProvider implements DocumentSymbolProvider {
    protected readonly nameProvider: NameProvider;

    constructor(services: LangiumServices) {
        this.nameProvider = services.references.NameProvider;
    }

    getSymbols(document: LangiumDocument, _params: DocumentSymbolParams): MaybePromise<DocumentSymbol[]> {
        const model = document.parseResult?.value as Model | undefined;
        if (!model?.elements) return [];
        const symbols: DocumentSymbol[] = [];
        for (const element of model.elements) {
            const symbol = elementSymbol(element, this.nameProvider);
            if (symbol) symbols.push(symbol);
        }
        return symbols;
    }
}

function elementSymbol(node: AstNode, names: NameProvider): DocumentSymbol | undefined {
    const symbol = (
        n: AstNode & { name?: string },
        kind: SymbolKind,
        detail: string,
        children?: Array<DocumentSymbol | undefined>,
    ) => namedSymbol(names, n, kind, detail, children);
    if (isBox(node)) {
        return symbol(
            node,
            SymbolKind.Class,
            `box, kernel ${boxKernelName(node) ?? '(none)'}`,
            boxPorts(node).map(port =>
                symbol(port, SymbolKind.Field, `${port.direction} ${port.type?.$refText ?? '?'}`),
            ),
        );
    }
    if (isChain(node)) {
        return symbol(
            node,
            SymbolKind.Module,
            `chain${node.platform ? ` on ${node.platform.$refText}` : ''}`,
            chainInstances(node).map(instance => symbol(instance, SymbolKind.Object, instance.box?.$refText ?? '?')),
        );
    }
    if (isPtts(node)) {
        return symbol(
            node,
            SymbolKind.Namespace,
            'ptts',
            pttsComponents(node).map(component => {
                const period = componentPeriod(component);
                return symbol(
                    component,
                    SymbolKind.Event,
                    period ? `period ${period.value} ${period.unit}` : 'component',
                );
            }),
        );
    }
    if (isImageType(node))
        return symbol(node, SymbolKind.Struct, `image ${node.width} x ${node.height} of ${node.pixel}`);
    if (isPlatform(node)) return symbol(node, SymbolKind.Package, `platform, ${platformCores(node) ?? '?'} cores`);
    if (isThrottle(node)) return symbol(node, SymbolKind.Function, `throttle, ${node.mode?.kind ?? '?'}`);
    if (isTarget(node)) return symbol(node, SymbolKind.Interface, 'target');
    return undefined;
}

/** A symbol for a named node; undefined while the node has no text or name (a document being typed). */
function namedSymbol(
    names: NameProvider,
    node: AstNode & { name?: string },
    kind: SymbolKind,
    detail: string,
    children?: Array<DocumentSymbol | undefined>,
): DocumentSymbol | undefined {
    const cst = node.$cstNode;
    if (!cst || !node.name) return undefined;
    const nameNode = names.getNameNode(node);
    return {
        name: node.name,
        kind,
        detail,
        range: cst.range,
        selectionRange: nameNode?.range ?? cst.range,
        children: children?.filter((c): c is DocumentSymbol => c !== undefined),
    };
}
