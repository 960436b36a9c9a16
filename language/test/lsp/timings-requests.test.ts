/**
 * `chainlab/importTimings` end to end: bundled server over stdio → the backend's interchange/timings → one
 * WorkspaceEdit of the document (what the editor applies as one undo step); a bad row is a model error with its row.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ProtocolConnection, ResponseError } from 'vscode-languageserver/node.js';
import { ERROR_CODES, type RequestParamsOf, type RequestResultOf } from '@chainlab/contract';
import { languageDir, startServer } from './server-bundle.js';

let server: ChildProcessWithoutNullStreams;
let connection: ProtocolConnection;
const dir = mkdtempSync(join(tmpdir(), 'chainlab-timings-lsp-'));
const model = join(dir, 'fig52.chain');

beforeAll(async () => {
    copyFileSync(join(languageDir, '..', 'samples', 'ptts', 'thesis-fig5-2.chain'), model);
    ({ server, connection } = await startServer());
}, 60_000);

afterAll(() => {
    connection?.dispose();
    if (server && server.exitCode === null) server.kill();
});

const importTimings = (params: RequestParamsOf<'chainlab/importTimings'>) =>
    connection.sendRequest<RequestResultOf<'chainlab/importTimings'>>('chainlab/importTimings', params);

function csv(name: string, text: string): string {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
}

describe('chainlab/importTimings', () => {
    test("a CSV of bins becomes one edit of the ptts's etp, and says what it set", async () => {
        const path = csv('bins.csv', 'component,time [ms],count\nC2,5,3\nC2,6,1\n');
        const result = await importTimings({ uri: pathToFileURL(model).toString(), csv: path, ptts: 'Fig52' });
        const edits = Object.values(result.edit.changes ?? {});
        expect(edits).toHaveLength(1);
        expect(edits[0]).toHaveLength(1);
        expect(edits[0][0].newText).toBe('etp pmf { 5 ms: 0.75, 6 ms: 0.25 }');
        expect(result.settings).toEqual([
            expect.objectContaining({ element: 'component C2', text: 'etp pmf { 5 ms: 0.75, 6 ms: 0.25 }' }),
        ]);
        expect(result.untouched).toEqual(['C0', 'C1']);
        expect(result.rows).toBe(2);
    }, 60_000);

    test('a row naming no component is a model error with its row; nothing to apply', async () => {
        const path = csv('typo.csv', 'component,time [ms]\nC1,30\nC9,31\n');
        const error = await importTimings({ uri: pathToFileURL(model).toString(), csv: path, ptts: 'Fig52' }).then(
            () => undefined,
            (e: ResponseError<unknown>) => e,
        );
        expect(error?.code).toBe(ERROR_CODES.MODEL_ERROR);
        expect(error?.message).toMatch(new RegExp(`${path}:3: .*'C9'`));
    }, 60_000);
});
