/**
 * Diagram updates: after every build (also one with errors, so the generator can mark the last good
 * diagram stale) and whenever a new analysis result arrives for a document.
 */
import { URI, type LangiumDocument } from 'langium';
import { DefaultDiagramServerManager, type LangiumSprottySharedServices } from 'langium-sprotty';
import { CancellationToken } from 'vscode-languageserver';

export class ChainlabDiagramServerManager extends DefaultDiagramServerManager {
    constructor(private readonly shared: LangiumSprottySharedServices) {
        super(shared);
    }

    protected override shouldUpdateDiagram(): boolean {
        return true;
    }

    /** Regenerates every open diagram of the document (e.g. to show a new analysis result). */
    async refresh(uri: string): Promise<void> {
        const parsed = URI.parse(uri);
        const documents = this.shared.workspace.LangiumDocuments;
        if (!documents.hasDocument(parsed)) return;
        const servers = this.findServersForUri(parsed);
        if (servers.length) await this.updateDiagrams(new Map([[documents.getDocument(parsed) as LangiumDocument, servers]]), CancellationToken.None);
    }
}
