/**
 * `chainlab/prepareDiagram` through the bundled server: the preparation lays out exactly the drawing the panel's
 * model request then shows (ELK's input is the same, so the request finds it made), and bad or early
 * preparations cost nothing but CPU.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { NotificationType } from 'vscode-languageserver/node.js';
import type { PrepareDiagramParams } from '@chainlab/contract';
import { DiagramClient } from '../diagram-server/diagram-client.js';
import { repo } from '../diagram-server/diagram-helpers.js';

const prepare = new NotificationType<PrepareDiagramParams>('chainlab/prepareDiagram');
const xrayPath = join(repo, 'samples', 'xray.chain');
const xray = pathToFileURL(xrayPath).toString();
const panel = { width: 800, height: 964 };

let client: DiagramClient;
let store: string;
const drawings = () => readdirSync(store).filter(n => n.endsWith('.json.gz'));

async function until(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
        if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}; stderr ${client.stderr}`);
        await new Promise(resolve => setTimeout(resolve, 20));
    }
}

beforeAll(async () => {
    store = mkdtempSync(join(tmpdir(), 'chainlab-prepare-'));
    // the drawings the server keeps show which layouts ELK made
    client = await DiagramClient.start({ ...process.env, CHAINLAB_LAYOUT_STORE: store });
    await client.open(xray, readFileSync(xrayPath, 'utf-8'));
}, 60_000);

afterAll(() => {
    client?.stop();
    rmSync(store, { recursive: true, force: true });
});

describe('preparing a diagram while its panel loads', () => {
    test("the preparation lays out the drawing the panel's request then shows, once", async () => {
        const options = { view: 'chain', showPorts: true, showCosts: true, viewport: panel } as const;
        const before = drawings().length;
        await client.connection.sendNotification(prepare, { sourceUri: xray, options });
        await until(() => drawings().length === before + 1, 'the prepared drawing');
        const prepared = drawings();
        const model = await client.requestModel('panel-1', xray, options);
        expect(drawings()).toEqual(prepared); // the request made no drawing of its own: it found the prepared one
        expect((model.newRoot.children as unknown[]).length).toBeGreaterThan(20);
    }, 60_000);

    test('a request that comes while the preparation runs gets the same drawing', async () => {
        const options = { view: 'chain', viewport: { width: 1600, height: 900 } } as const; // another drawing
        const before = drawings().length;
        await client.connection.sendNotification(prepare, { sourceUri: xray, options });
        const model = await client.requestModel('panel-2', xray, options);
        await new Promise(resolve => setTimeout(resolve, 300));
        expect(drawings().length).toBe(before + 1);
        const alone = await client.requestModel('panel-2b', xray, options);
        expect(JSON.stringify(model.newRoot)).toBe(JSON.stringify(alone.newRoot));
    }, 60_000);

    test('a preparation for other options or a file that is not open does no harm', async () => {
        await client.connection.sendNotification(prepare, {
            sourceUri: pathToFileURL(join(repo, 'samples', 'no-such-file.chain')).toString(),
            options: { view: 'chain' },
        });
        await client.connection.sendNotification(prepare, { sourceUri: xray, options: { view: 'plan' } });
        const model = await client.requestModel('panel-3', xray, { view: 'chain', viewport: panel, showPorts: false });
        expect(model.kind).toBe('setModel');
        expect(client.stderr).not.toMatch(/Error|unhandled/i);
    }, 60_000);
});
