/**
 * `chainlab/importModel` end to end: bundled server over stdio → the backend's interchange/import with the path
 * the editor gives (there is no document yet). A refused file comes back as a model error naming file and line.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProtocolConnection, ResponseError } from 'vscode-languageserver/node.js';
import { ERROR_CODES, type ImportResult, type RequestParamsOf } from '@chainlab/contract';
import { languageDir, startServer } from './server-bundle.js';

const sample = join(languageDir, '..', 'samples', 'import', 'xray-pipeline.sdf3.xml');

let server: ChildProcessWithoutNullStreams;
let connection: ProtocolConnection;

beforeAll(async () => {
    ({ server, connection } = await startServer());
}, 60_000);

afterAll(() => {
    connection?.dispose();
    if (server && server.exitCode === null) server.kill();
});

const importModel = (params: RequestParamsOf<'chainlab/importModel'>) =>
    connection.sendRequest<ImportResult>('chainlab/importModel', params);

describe('chainlab/importModel', () => {
    test('an SDF3 file comes back as .chain text with its format and notes', async () => {
        const result = await importModel({ path: sample, progressToken: 'i' });
        expect(result.format).toBe('sdf3');
        expect(result.text).toMatch(/\bchain\b/);
        expect(Array.isArray(result.notes)).toBe(true);
    }, 60_000);

    test('malformed XML is a model error naming the file and line', async () => {
        const path = join(mkdtempSync(join(tmpdir(), 'chainlab-import-lsp-')), 'malformed.sdf3.xml');
        writeFileSync(path, '<?xml version="1.0"?>\n<sdf3 type="sdf">\n  <applicationGraph>\n</sdf3>\n');
        const error = await importModel({ path, format: 'sdf3' }).then(
            () => undefined,
            (e: ResponseError<unknown>) => e,
        );
        expect(error?.code).toBe(ERROR_CODES.MODEL_ERROR);
        expect(error?.message).toMatch(new RegExp(`${path}:4:\\d+: error: not well-formed XML: mismatched tag`));
    }, 60_000);
});
