/**
 * `chainlab/prepareDiagram`: the editor opens a diagram panel and, while its webview loads (half a second or more),
 * the server builds and lays out the model the panel's first model request will most likely ask for. That request
 * then finds ELK's drawing made (or being made: it waits for it, cached-elk-layout.ts) instead of starting it only
 * once the webview has started. Best effort: a preparation that fails or guessed other options costs only CPU, and
 * the model request reports any problem itself.
 */
import type { Connection } from 'vscode-languageserver';
import type { LangiumSprottySharedServices } from 'langium-sprotty';
import { URI } from 'langium';
import type { JsonMap, SModelRoot } from 'sprotty-protocol';
import type { IDiagramGenerator, IModelLayoutEngine } from 'sprotty-protocol/lib/diagram-services.js';
import type { PrepareDiagramParams } from '@chainlab/contract';

interface DiagramParts {
    diagram: { DiagramGenerator: IDiagramGenerator; ModelLayoutEngine?: IModelLayoutEngine };
}

/** Builds and lays out the model of `params`, as a diagram server answers a model request, and drops it. */
export async function prepareDiagram(
    shared: LangiumSprottySharedServices,
    params: PrepareDiagramParams,
): Promise<void> {
    const uri = URI.parse(params.sourceUri);
    if (!shared.workspace.LangiumDocuments.hasDocument(uri)) return; // not open: nothing to get ahead of
    const { diagram } = shared.ServiceRegistry.getServices(uri) as unknown as DiagramParts;
    const options = { ...params.options, sourceUri: params.sourceUri, needsServerLayout: true } as unknown as JsonMap;
    const root: SModelRoot = await diagram.DiagramGenerator.generate({
        options,
        state: { options, currentRoot: { type: 'NONE', id: 'EMPTY' }, revision: 0 },
    });
    await diagram.ModelLayoutEngine?.layout(root);
}

export function registerDiagramPrepare(connection: Connection, shared: LangiumSprottySharedServices): void {
    connection.onNotification('chainlab/prepareDiagram', (params: PrepareDiagramParams) => {
        prepareDiagram(shared, params).catch(() => {
            // the panel's own model request meets the same problem and shows it
        });
    });
}
