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

    /**
     * Only diagrams that have shown a model get updates: one still answering its first request will
     * generate from the built document anyway (laying it out twice made the first diagram twice as slow).
     */
    override findServersForUri(documentUri: URI): ReturnType<DefaultDiagramServerManager['findServersForUri']> {
        return super.findServersForUri(documentUri).filter(server => server.state.revision > 0);
    }

    /** Regenerates every open diagram of the document (e.g. to show a new analysis result). */
    async refresh(uri: string): Promise<void> {
        const parsed = URI.parse(uri);
        const documents = this.shared.workspace.LangiumDocuments;
        if (!documents.hasDocument(parsed)) return;
        const servers = this.findServersForUri(parsed);
        if (servers.length)
            await this.updateDiagrams(
                new Map([[documents.getDocument(parsed) as LangiumDocument, servers]]),
                CancellationToken.None,
            );
    }
}
