/**
 * A request may arrive between an edit (didOpen/didChange) and the build it queued; resolving references
 * then would read an unlinked model (and make Langium warn for each one). Requests that read the model
 * wait for the queued builds, and build the document themselves when nobody will (a file not open).
 */
import { DocumentState, URI, type LangiumDocument, type LangiumSharedCoreServices } from 'langium';
import type { Model } from '../generated/ast.js';

export async function whenValidated(shared: LangiumSharedCoreServices, document: LangiumDocument): Promise<void> {
    if (document.state >= DocumentState.Validated) return;
    await shared.workspace.WorkspaceLock.read(() => undefined); // runs after the queued document updates
    if (document.state < DocumentState.Validated)
        await shared.workspace.DocumentBuilder.build([document], { validation: true });
}

/** The document at `uriText` (loaded when no editor has it open), validated. */
export async function validatedDocument(
    shared: LangiumSharedCoreServices,
    uriText: string,
): Promise<LangiumDocument<Model>> {
    const documents = shared.workspace.LangiumDocuments;
    const uri = URI.parse(uriText);
    const document = (
        documents.hasDocument(uri) ? documents.getDocument(uri) : await documents.getOrCreateDocument(uri)
    ) as LangiumDocument<Model>;
    await whenValidated(shared, document);
    return document;
}
