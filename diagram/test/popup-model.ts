/**
 * A node's popup as the language server answers it (requestPopupModel), handed to the test page, which shows it
 * when the pointer rests on the node (the page has no server of its own).
 */
import type { Page } from 'playwright-core';
import type { DiagramClient } from '../../language/test/diagram-server/diagram-client.js';

type Api = { setPopups(popups: Record<string, unknown>): void };

export async function givePopup(client: DiagramClient, page: Page, clientId: string, elementId: string): Promise<void> {
    const requestId = `${clientId}-popup`;
    await client.send(clientId, {
        kind: 'requestPopupModel',
        elementId,
        bounds: { x: 0, y: 0, width: 0, height: 0 },
        requestId,
    });
    const popup = (await client.next(clientId, a => a.responseId === requestId)) as { newRoot: unknown };
    await page.evaluate(
        ([id, root]) =>
            (window as unknown as { chainlabDiagram: Api }).chainlabDiagram.setPopups({ [id as string]: root }),
        [elementId, popup.newRoot],
    );
}
