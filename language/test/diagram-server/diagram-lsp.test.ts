/**
 * Diagrams through the bundled language server over stdio, as the editor gets them: every view answers a
 * RequestModelAction, an edit updates the open diagram, a linking error still shows the model (marked where it
 * fails), a syntax error keeps the last picture marked stale,
 * and selecting a node in the diagram reveals its text.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DocumentHighlightRequest } from 'vscode-languageserver/node.js';
import { DiagramClient, elements } from './diagram-client.js';
import { repo } from './diagram-helpers.js';

const file = join(repo, 'samples', 'xray.chain');
const uri = pathToFileURL(file).toString();
const text = readFileSync(file, 'utf-8');
let client: DiagramClient;

beforeAll(async () => {
    client = await DiagramClient.start();
    await client.open(uri, text);
}, 60_000);
afterAll(() => client?.stop());

describe('diagrams over the language server protocol', () => {
    test('every view answers with a laid-out model', async () => {
        for (const [view, type] of [
            ['chain', 'node:box'],
            ['ptts', 'node:component'],
            ['timeline', 'node:trigger'],
            ['plan', 'node:subbox'],
            ['lanes', 'node:step'],
        ]) {
            const reply = await client.requestModel(`view-${view}`, uri, { view });
            const nodes = elements(reply.newRoot as never).filter(e => e.type === type);
            expect(nodes.length, view).toBeGreaterThan(0);
            expect(reply.newRoot.view).toBe(view);
        }
        // the first request came right after didOpen: it waited for the build instead of reading an unlinked model
        expect(client.logs.filter(l => l.includes('reference resolution before'))).toEqual([]);
    });

    test('warnings show as issue markers on the nodes they concern', async () => {
        // without the storage sink, the fork's archive output is left unconnected (a warning, not an error)
        const warned = text.replace(/^\s*storage:.*\n/m, '').replace(/^.*-> storage\.i.*\n/m, '');
        const warnedUri = uri.replace(/xray\.chain$/, 'xray-warned.chain');
        await client.open(warnedUri, warned);
        const reply = await client.requestModel('markers', warnedUri, { view: 'chain' });
        const all = elements(reply.newRoot);
        const marked = all.filter(e =>
            (e.children as Array<{ type: string }> | undefined)?.some(c => c.type === 'marker'),
        );
        expect(marked.map(m => m.name)).toEqual(['fork']);
        const [marker] = (
            marked[0].children as Array<{ type: string; issues: Array<{ message: string; severity: string }> }>
        ).filter(c => c.type === 'marker');
        expect(marker.issues).toEqual([
            { severity: 'warning', message: expect.stringMatching(/fork\.archive.*not connected/) },
        ]);
    });

    test('an edit updates the diagram; a linking error shows it marked; a syntax error keeps it, stale', async () => {
        const reply = await client.requestModel('edits', uri, { view: 'chain', element: 'XRay' });
        const boxes = elements(reply.newRoot as never).filter(e => e.type === 'node:box').length;
        // a second instance of the chain's first box: the next update has one more node
        const [, firstBox] = /^chain XRay[\s\S]*?^\s*\w+:\s*(\w+)\s*$/m.exec(text)!;
        const added = text.replace(/^(chain XRay[^{]*\{)/m, `$1\n    extra: ${firstBox}`);
        expect(added).not.toBe(text);
        let seen = client.count('edits');
        await client.change(uri, added);
        const update = (await client.next('edits', a => a.kind === 'updateModel', 30_000, seen)) as { newRoot: object };
        expect(elements(update.newRoot).filter(e => e.type === 'node:box')).toHaveLength(boxes + 1);
        // an unresolved reference: no crash, the model is drawn with the instance marked
        seen = client.count('edits');
        await client.change(uri, added.replace(`extra: ${firstBox}`, 'extra: NoSuchBox'));
        const linked = (await client.next('edits', a => a.kind === 'updateModel', 30_000, seen)) as {
            newRoot: { stale?: boolean };
        };
        expect(linked.newRoot.stale).toBeFalsy();
        const extra = elements(linked.newRoot).find(e => e.type === 'node:box' && e.name === 'extra')!;
        expect(JSON.stringify(extra.children)).toMatch(/"type":"marker".*NoSuchBox/);
        // a syntax error: the last picture comes back marked stale
        seen = client.count('edits');
        await client.change(uri, added.replace(`extra: ${firstBox}`, 'extra: : :'));
        const stale = (await client.next('edits', a => a.kind === 'updateModel', 30_000, seen)) as {
            newRoot: { stale?: boolean; staleReason?: string };
        };
        expect(stale.newRoot.stale).toBe(true);
        expect(stale.newRoot.staleReason).toMatch(/syntax error/);
        expect(elements(stale.newRoot).filter(e => e.type === 'node:box')).toHaveLength(boxes + 1);
        seen = client.count('edits');
        await client.change(uri, text);
        const fixed = (await client.next('edits', a => a.kind === 'updateModel', 30_000, seen)) as {
            newRoot: { stale?: boolean };
        };
        expect(fixed.newRoot.stale).toBeFalsy();
        expect(elements(fixed.newRoot).filter(e => e.type === 'node:box')).toHaveLength(boxes);
    });

    test('selecting a node reveals its instance in the text', async () => {
        const reply = await client.requestModel('select', uri, { view: 'chain' });
        const node =
            elements(reply.newRoot as never).find(e => e.type === 'node:box' && e.id === 'spatial') ??
            elements(reply.newRoot as never).find(e => e.type === 'node:box')!;
        await client.send('select', {
            kind: 'elementSelected',
            selectedElementsIDs: [node.id],
            deselectedElementsIDs: [],
        });
        const deadline = Date.now() + 10_000;
        while (client.reveals.length === 0 && Date.now() < deadline) await new Promise(r => setTimeout(r, 20));
        expect(client.reveals.length).toBeGreaterThan(0);
        const line = text.split('\n')[client.reveals[0].line];
        expect(line).toContain(`${node.id}:`);
    });

    test('moving the cursor onto an instance selects its node in the diagram', async () => {
        await client.requestModel('cursor', uri, { view: 'chain' });
        const line = text.split('\n').findIndex(l => /^\s+darkref:/.test(l));
        const seen = client.count('cursor');
        // the editor asks for highlights at the cursor; langium-sprotty tracks that position
        await client.connection.sendRequest(DocumentHighlightRequest.type, {
            textDocument: { uri },
            position: { line, character: 6 },
        });
        const select = (await client.next('cursor', a => a.kind === 'elementSelected', 10_000, seen)) as {
            selectedElementsIDs: string[];
        };
        expect(select.selectedElementsIDs).toContain('darkref');
    });
});
