/**
 * Hover popups of diagram nodes through the bundled language server, as the webview asks for them
 * (RequestPopupModelAction over diagram/accept): the popup carries what the text hover says about the node's
 * source (box: kernel, cost, split, slices, buffers; component: period, offset, ETP) plus what the view knows
 * of this element, and the server no longer logs "Unhandled action from client: requestPopupModel".
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DiagramClient, elements } from './diagram-client.js';
import { repo } from './diagram-helpers.js';

const sample = join(repo, 'samples', 'xray.chain');
const uri = pathToFileURL(sample).toString();
let client: DiagramClient;

beforeAll(async () => {
    client = await DiagramClient.start();
    await client.open(uri, readFileSync(sample, 'utf-8'));
}, 60_000);
afterAll(() => client?.stop());

/** The popup HTML the server answers for an element of a view (the text of the pre-rendered body). */
async function popupOf(view: string, pick: (e: { type: string; id: string }) => boolean) {
    const clientId = `popup-${view}`;
    const model = await client.requestModel(clientId, uri, { view });
    const element = elements(model.newRoot as never).find(pick);
    expect(element, `an element to hover in the ${view} view`).toBeDefined();
    const requestId = `${clientId}-popup`;
    await client.send(clientId, {
        kind: 'requestPopupModel',
        elementId: element!.id,
        bounds: { x: 10, y: 10, width: 0, height: 0 },
        requestId,
    });
    const reply = (await client.next(clientId, a => a.responseId === requestId)) as {
        kind: string;
        newRoot: { type: string; canvasBounds?: unknown; children: Array<{ type: string; code: string }> };
    };
    expect(reply.kind).toBe('setPopupModel');
    expect(reply.newRoot.type).toBe('html');
    // where the webview asked for it, beside the pointer (without bounds Sprotty puts it at the panel's top left)
    expect(reply.newRoot.canvasBounds).toEqual({ x: 10, y: 10, width: 0, height: 0 });
    return { html: reply.newRoot.children[0].code, element: element! };
}

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('diagram hover popups', () => {
    test('a box shows its kernel, cost, split, slices and buffers', async () => {
        const { html } = await popupOf('chain', e => e.type === 'node:box' && e.id.endsWith('snr'));
        const t = text(html);
        expect(t).toMatch(/snr/);
        expect(t).toMatch(/kernel \w+/);
        expect(t).toMatch(/cost \d/);
        expect(t).toMatch(/split (rows|none)/);
        expect(t).toMatch(/sub-box/);
        expect(t).toMatch(/MiB/); // the buffer sizes the edges no longer repeat
        expect(html).toContain('class="chainlab-popup"');
    });

    test('a PTTS component shows its period, offset and ETP with its CDF', async () => {
        const { html } = await popupOf('ptts', e => e.type === 'node:component' && e.id.endsWith('GPU'));
        const t = text(html);
        expect(t).toMatch(/component GPU/);
        expect(t).toMatch(/period/);
        expect(t).toMatch(/offset|phase/);
        expect(t).toMatch(/etp|ETP/);
        expect(html).toContain('<svg');
    });

    test('a Gantt bar shows its box and predicted start and end', async () => {
        const { html } = await popupOf('lanes', e => e.type === 'node:step');
        const t = text(html);
        expect(t).toMatch(/box \w+/);
        expect(t).toMatch(/predicted [\d.]+ (ns|µs|ms) \.\. [\d.]+ (ns|µs|ms)/);
    });

    test('no "Unhandled action" in the server log', () => {
        expect(client.logs.filter(l => /Unhandled action/.test(l))).toEqual([]);
        expect(client.stderr).not.toMatch(/Unhandled action/);
    });
});
