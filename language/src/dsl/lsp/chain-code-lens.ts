/**
 * CodeLens above each chain, ptts and target: the actions users open chainlab for. They name client
 * commands of the VS Code extension (`chainlab.*`) with the document uri and the element's name.
 */
import type { LangiumDocument } from 'langium';
import type { CodeLensProvider } from 'langium/lsp';
import type { CodeLens } from 'vscode-languageserver';
import { isChain, isPtts, isTarget, type Model } from '../../generated/ast.js';

export class ChainCodeLensProvider implements CodeLensProvider {
    provideCodeLens(document: LangiumDocument): CodeLens[] {
        const uri = document.uri.toString();
        const lenses: CodeLens[] = [];
        const lens = (
            node: { $cstNode?: { range: CodeLens['range'] } },
            title: string,
            command: string,
            ...args: unknown[]
        ) => {
            if (node.$cstNode)
                lenses.push({ range: node.$cstNode.range, command: { title, command, arguments: [uri, ...args] } });
        };
        for (const element of (document.parseResult.value as Model).elements) {
            if (isChain(element)) {
                lens(element, 'Diagram', 'chainlab.openDiagram', 'chain', element.name);
                lens(element, 'Show plan', 'chainlab.openDiagram', 'plan', element.name);
                lens(element, 'Thread lanes', 'chainlab.openDiagram', 'lanes', element.name);
                lens(element, 'Generate C project', 'chainlab.generate', element.name);
                lens(element, 'Run on target', 'chainlab.run', element.name);
                lens(element, 'Calibrate and run', 'chainlab.calibrateAndRun', element.name);
            } else if (isPtts(element)) {
                lens(element, 'Diagram', 'chainlab.openDiagram', 'ptts', element.name);
                lens(element, 'Trigger timeline', 'chainlab.openDiagram', 'timeline', element.name);
                lens(element, 'Analyze latency', 'chainlab.analyze', element.name);
                lens(element, 'Explore offsets', 'chainlab.explore', element.name);
                lens(element, 'Nearby periods', 'chainlab.nearbyPeriods', element.name);
            } else if (isTarget(element)) {
                lens(element, `Run on ${element.name}`, 'chainlab.run', undefined, element.name);
            }
        }
        return lenses;
    }
}
