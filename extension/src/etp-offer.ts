/**
 * The ETP action of the notification after a run, as the language server (which owns the model) answers it:
 * *Update ETP from measurement* where a ptts component has `etp chain X`, else *Create a PTTS around chain X*
 * (the server's edit, applied by the editor so undo works, then the update on request), and none when the run
 * measured nothing: an action that can only be refused is not offered.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { PttsAroundChain, RequestParamsOf, RequestResultOf } from '@chainlab/contract';

export const UPDATE_ETP = 'Update ETP from measurement';

export interface EtpAction {
    /** The button's text. */
    readonly label: string;
    readonly take: () => Promise<void>;
}

/** The action to offer after a run of `chain` in document `uri`, or none. */
export async function etpAction(
    client: LanguageClient,
    uri: string,
    chain: string,
    log: (line: string) => void,
): Promise<EtpAction | undefined> {
    let offer: RequestResultOf<'chainlab/etpOffer'>;
    try {
        offer = await client.sendRequest<RequestResultOf<'chainlab/etpOffer'>>('chainlab/etpOffer', {
            uri,
            chain,
        } satisfies RequestParamsOf<'chainlab/etpOffer'>);
    } catch (error) {
        // the run itself succeeded: a server that cannot answer costs the button, not the notification
        log(`chainlab/etpOffer: ${(error as Error).message}`);
        return undefined;
    }
    if (!offer.measured) return undefined;
    if (offer.components > 0) return { label: UPDATE_ETP, take: () => updateEtp(uri, chain) };
    const create = offer.create;
    if (!create) return undefined;
    return { label: `Create a PTTS around chain ${chain}`, take: () => createPtts(client, create, uri, chain) };
}

async function updateEtp(uri: string, chain: string): Promise<void> {
    await vscode.commands.executeCommand('chainlab.updateEtpFromMeasurement', uri, chain);
}

async function createPtts(client: LanguageClient, create: PttsAroundChain, uri: string, chain: string): Promise<void> {
    const applied = await vscode.workspace.applyEdit(await client.protocol2CodeConverter.asWorkspaceEdit(create.edit));
    if (!applied) return void vscode.window.showWarningMessage(`chainlab: could not add ptts ${create.ptts}`);
    const choice = await vscode.window.showInformationMessage(
        `chainlab: added ptts ${create.ptts}, whose component runs chain ${chain} (etp chain ${chain})`,
        UPDATE_ETP,
    );
    if (choice === UPDATE_ETP) await updateEtp(uri, chain);
}
