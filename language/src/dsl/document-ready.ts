/**
 * A request may arrive between an edit (didOpen/didChange) and the build it queued; resolving references
 * then would read an unlinked model (and make Langium warn for each one). Requests that read the model
 * wait for the queued builds, and build the document themselves when nobody will (a file not open).
 */
import { DocumentState, type LangiumDocument, type LangiumSharedCoreServices } from 'langium';

export async function whenValidated(shared: LangiumSharedCoreServices, document: LangiumDocument): Promise<void> {
    if (document.state >= DocumentState.Validated) return;
    await shared.workspace.WorkspaceLock.read(() => undefined); // runs after the queued document updates
    if (document.state < DocumentState.Validated)
        await shared.workspace.DocumentBuilder.build([document], { validation: true });
}
