/**
 * What the VS Code extension asks the language server over stdio: CodeLens above chains, ptts and targets;
 * Analyze latency (the result then shows in the PTTS diagram and in the hover with a CDF image);
 * Generate C project with progress-free reply; progress notifications of long requests.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { formatMs } from '@chainlab/contract';
import {
    ApplyWorkspaceEditRequest,
    CancellationTokenSource,
    CodeLensRequest,
    HoverRequest,
    NotificationType,
    type ApplyWorkspaceEditParams,
    type CodeLens,
    type Hover,
    type MarkupContent,
} from 'vscode-languageserver/node.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DiagramClient, elements } from '../diagram-server/diagram-client.js';
import { repo } from '../diagram-server/diagram-helpers.js';

const file = join(repo, 'samples', 'xray.chain');
const uri = pathToFileURL(file).toString();
const text = readFileSync(file, 'utf-8');
let client: DiagramClient;
const progress: Array<{ token: string; fraction: number; message: string }> = [];
const applied: ApplyWorkspaceEditParams[] = [];

beforeAll(async () => {
    client = await DiagramClient.start();
    client.connection.onNotification(
        new NotificationType<{ token: string; fraction: number; message: string }>('chainlab/progress'),
        p => {
            progress.push(p);
        },
    );
    client.connection.onRequest(ApplyWorkspaceEditRequest.type, params => {
        applied.push(params);
        return { applied: true };
    });
    await client.open(uri, text);
}, 60_000);
afterAll(() => client?.stop());

describe('IDE requests of the language server', () => {
    test('CodeLens: diagram, plan, generate and run above chains; analyze above ptts; run above targets', async () => {
        const lenses = (await client.connection.sendRequest(CodeLensRequest.type, {
            textDocument: { uri },
        })) as CodeLens[];
        const titles = (command: string) =>
            lenses.filter(l => l.command?.command === command).map(l => l.command!.title);
        expect(titles('chainlab.openDiagram')).toEqual(
            expect.arrayContaining(['Diagram', 'Show plan', 'Thread lanes', 'Trigger timeline']),
        );
        expect(titles('chainlab.analyze')).toEqual(['Analyze latency']);
        expect(titles('chainlab.run')).toEqual(expect.arrayContaining(['Run on target', 'Run on here']));
        expect(titles('chainlab.calibrateAndRun')).toEqual(['Calibrate and run']);
        expect(titles('chainlab.nearbyPeriods')).toEqual(['Nearby periods']);
        const analyze = lenses.find(l => l.command?.command === 'chainlab.analyze')!;
        expect(analyze.command!.arguments).toEqual([uri, 'System']);
        expect(text.split('\n')[analyze.range.start.line]).toMatch(/^ptts System/);
    });

    test('Analyze latency: the result reaches the PTTS diagram and the hover', async () => {
        const before = await client.requestModel('ptts-analysis', uri, { view: 'ptts' });
        expect(JSON.stringify(before.newRoot)).toContain('not analysed yet');
        const seen = client.count('ptts-analysis');
        const result = await client.connection.sendRequest<{
            percentiles: Record<string, number>;
            loss_probability: number;
        }>('chainlab/analyze', { uri, ptts: 'System', progressToken: 'p1' });
        expect(result.percentiles['99']).toBeGreaterThan(0);
        const update = (await client.next('ptts-analysis', a => a.kind === 'updateModel', 30_000, seen)) as {
            newRoot: object;
        };
        const texts = elements(update.newRoot).map(e => (typeof e.text === 'string' ? e.text : ''));
        // in the one number format: 3 significant digits
        expect(texts).toContain(
            `p50 ${formatMs(result.percentiles['50'])} · p99 ${formatMs(result.percentiles['99'])}`,
        );
        const line = text.split('\n').findIndex(l => l.startsWith('ptts System'));
        const hover = (await client.connection.sendRequest(HoverRequest.type, {
            textDocument: { uri },
            position: { line, character: 6 },
        })) as Hover;
        const value = (hover.contents as MarkupContent).value;
        expect(value).toContain(`p99 ${result.percentiles['99']} ms`);
        expect(value).toMatch(/!\[CDF\]\(data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+\)/);
    });

    test('Generate C project writes a buildable project where asked', async () => {
        const out = mkdtempSync(join(tmpdir(), 'chainlab-gen-'));
        try {
            const reply = await client.connection.sendRequest<{ files: string[]; out: string }>('chainlab/generate', {
                uri,
                chain: 'XRay',
                out,
            });
            expect(reply.files).toContain('CMakeLists.txt');
            expect(existsSync(join(out, 'CMakeLists.txt'))).toBe(true);
        } finally {
            rmSync(out, { recursive: true, force: true });
        }
    });

    test('an edit from the diagram comes back as a workspace edit the editor applies', async () => {
        const reply = await client.connection.sendRequest<{ applied: boolean }>('chainlab/diagramEdit', {
            uri,
            op: 'deleteInstance',
            chain: 'XRay',
            name: 'detector',
        });
        expect(reply.applied).toBe(true);
        const edits = applied[0].edit.changes![uri];
        expect(edits.length).toBeGreaterThan(1); // the instance and its connections
        expect(edits.some(e => text.split('\n')[e.range.start.line].trim().startsWith('detector:'))).toBe(true);
        await expect(
            client.connection.sendRequest('chainlab/diagramEdit', {
                uri,
                op: 'deleteInstance',
                chain: 'XRay',
                name: 'nope',
            }),
        ).rejects.toThrow(/no instance nope/);
    });

    test('Run on target: progress while it runs; cancelling stops the run and keeps what was measured', async () => {
        const runs = mkdtempSync(join(tmpdir(), 'chainlab-runs-'));
        try {
            const source = new CancellationTokenSource();
            const started = Date.now();
            const reply = client.connection.sendRequest<{ status: string; out_dir: string; summary: string }>(
                'chainlab/deploy',
                {
                    uri,
                    chain: 'XRay',
                    target: 'here',
                    scenario: 'baseline',
                    iterations: 5000,
                    runs,
                    progressToken: 'run-1',
                },
                source.token,
            );
            await expect
                .poll(
                    () =>
                        progress
                            .filter(p => p.token === 'run-1')
                            .map(p => p.message)
                            .join('\n'),
                    { timeout: 120_000 },
                )
                .toMatch(/baseline/);
            await new Promise(resolve => setTimeout(resolve, 2000)); // some frames measured
            source.cancel();
            const cancelledAt = Date.now();
            const result = await reply;
            expect(Date.now() - cancelledAt).toBeLessThan(20_000);
            expect(result.status).toBe('stopped');
            const csv = readFileSync(join(result.out_dir, 'baseline', 'latencies.csv'), 'utf-8')
                .trim()
                .split('\n');
            expect(csv.length - 1).toBeGreaterThan(0);
            expect(csv.length - 1).toBeLessThan(5000);
            expect(Date.now() - started).toBeLessThan(150_000);
        } finally {
            rmSync(runs, { recursive: true, force: true });
        }
    }, 180_000);

    test('a backend that dies is reported clearly and started again for the next request', async () => {
        await client.connection.sendRequest('chainlab/analyze', { uri, ptts: 'System' });
        const [first] = client.backendPids();
        expect(first).toBeGreaterThan(0);
        // dies while working: the request fails with a message saying so
        const runs = mkdtempSync(join(tmpdir(), 'chainlab-runs-'));
        try {
            const slow = client.connection.sendRequest('chainlab/deploy', {
                uri,
                chain: 'XRay',
                target: 'here',
                scenario: 'baseline',
                iterations: 5000,
                runs,
                progressToken: 'run-2',
            });
            await expect
                .poll(
                    () =>
                        progress
                            .filter(p => p.token === 'run-2')
                            .map(p => p.message)
                            .join('\n'),
                    { timeout: 120_000 },
                )
                .toMatch(/baseline/);
            const chainRuns = () =>
                client.processes(
                    cmd => cmd.includes('/build/chain') && cmd.includes('--iterations') && cmd.includes('5000'),
                );
            expect(chainRuns().length).toBe(1); // the chain measuring on this machine
            process.kill(first, 'SIGKILL');
            await expect(slow).rejects.toThrow(/backend exited during deploy\/run/);
            // the run's watchdog stops what the killed backend started
            await expect.poll(chainRuns, { timeout: 15_000 }).toEqual([]);
        } finally {
            rmSync(runs, { recursive: true, force: true });
        }
        // the next request starts a new backend
        const again = await client.connection.sendRequest<{ percentiles: Record<string, number> }>('chainlab/analyze', {
            uri,
            ptts: 'System',
        });
        expect(again.percentiles['99']).toBeGreaterThan(0);
        const [second] = client.backendPids();
        expect(second).toBeGreaterThan(0);
        expect(second).not.toBe(first);
    });

    test('gestures in the diagram webview arrive as chainlabEdit actions and become one workspace edit', async () => {
        await client.requestModel('edit-client', uri, { view: 'chain' });
        const before = applied.length;
        await client.send('edit-client', {
            kind: 'chainlabEdit',
            edits: [
                { op: 'deleteInstance', chain: 'XRay', name: 'detector' },
                { op: 'deleteInstance', chain: 'XRay', name: 'dark' },
            ],
        });
        await expect.poll(() => applied.length, { timeout: 10_000 }).toBe(before + 1);
        const edits = applied[before].edit.changes![uri];
        const lines = edits.map(e => text.split('\n')[e.range.start.line].trim());
        expect(lines.some(l => l.startsWith('detector:'))).toBe(true);
        expect(lines.some(l => l.startsWith('dark:'))).toBe(true);
        expect(applied[before].label).toBe('diagram: deleteInstance');
        // a refused edit says why in the diagram's status line
        const seen = client.count('edit-client');
        await client.send('edit-client', {
            kind: 'chainlabEdit',
            edits: [{ op: 'connect', chain: 'XRay', from: 'nope.o', to: 'detector.i' }],
        });
        const status = (await client.next(
            'edit-client',
            a => a.kind === 'serverStatus' && a.severity === 'ERROR',
            10_000,
            seen,
        )) as {
            message: string;
            severity: string;
        };
        expect(status.severity).toBe('ERROR');
        expect(status.message).toMatch(/no instance nope/);
        expect(applied.length).toBe(before + 1);
    });

    test("a rename from the diagram is the rename provider's one workspace edit: the instance and its connections", async () => {
        await client.requestModel('rename-client', uri, { view: 'chain' });
        const before = applied.length;
        await client.send('rename-client', {
            kind: 'chainlabEdit',
            edits: [{ op: 'renameInstance', chain: 'XRay', name: 'detector', newName: 'sensor' }],
        });
        await expect.poll(() => applied.length, { timeout: 10_000 }).toBe(before + 1);
        expect(applied[before].label).toBe('diagram: renameInstance');
        const edits = Object.values(applied[before].edit.changes ?? {}).flat();
        const references = text.split('\n').filter(l => /\bdetector\b/.test(l.replace(/\/\/.*/, ''))).length;
        expect(edits.length).toBeGreaterThan(1); // the declaration and the connections that name it
        expect(edits.length).toBeLessThanOrEqual(references * 2);
        // each edit renames (an aligned member's line is rewritten whole, its column kept)
        expect(edits.every(e => e.newText === 'sensor' || /^\s+sensor\b.*\S/.test(e.newText))).toBe(true);
        expect(edits.every(e => !/\bdetector\b/.test(e.newText))).toBe(true);
        // a keyword is refused with the provider's reason, shown in the diagram
        const seen = client.count('rename-client');
        await client.send('rename-client', {
            kind: 'chainlabEdit',
            edits: [{ op: 'renameInstance', chain: 'XRay', name: 'detector', newName: 'chain' }],
        });
        const status = (await client.next(
            'rename-client',
            a => a.kind === 'serverStatus' && a.severity === 'ERROR',
            10_000,
            seen,
        )) as {
            message: string;
            severity: string;
        };
        expect(status.severity).toBe('ERROR');
        expect(applied.length).toBe(before + 1);
    });

    test('a model error is a clear response error naming file, line and column', async () => {
        const bad = pathToFileURL(join(repo, 'samples', 'broken-for-test.chain')).toString();
        await client.open(
            bad,
            'ptts P { component A period 10 ms etp point 1 ms component B period 10 ms etp chain Nope }\n',
        );
        await expect(client.connection.sendRequest('chainlab/analyze', { uri: bad, ptts: 'P' })).rejects.toThrow(
            /broken-for-test\.chain:1:\d+: the model has \d+ error/,
        );
    });
});
