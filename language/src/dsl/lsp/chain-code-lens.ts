/**
 * CodeLens above each chain, ptts and target: the actions users open chainlab for. They name client
 * commands of the VS Code extension (`chainlab.*`) with the document uri and the element's name, from the
 * contract's table (the extension's provisional lenses come from the same table).
 */
import type { LangiumDocument } from 'langium';
import type { CodeLensProvider } from 'langium/lsp';
import type { CodeLens } from 'vscode-languageserver';
import { lensCommands, type LensedKind } from '@chainlab/contract';
import { isChain, isPtts, isTarget, type Model } from '../../generated/ast.js';

export class ChainCodeLensProvider implements CodeLensProvider {
    provideCodeLens(document: LangiumDocument): CodeLens[] {
        const uri = document.uri.toString();
        const lenses: CodeLens[] = [];
        for (const element of (document.parseResult.value as Model).elements) {
            const kind: LensedKind | undefined = isChain(element)
                ? 'chain'
                : isPtts(element)
                  ? 'ptts'
                  : isTarget(element)
                    ? 'target'
                    : undefined;
            const range = element.$cstNode?.range;
            if (!kind || !range) continue;
            for (const command of lensCommands(kind, uri, element.name)) lenses.push({ range, command });
        }
        return lenses;
    }
}
