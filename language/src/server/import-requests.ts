/**
 * `chainlab/importModel`: the editor names a file another tool wrote (SDF3, PREESM, Amalthea); the server asks the
 * backend's `interchange/import` and returns the .chain text with its notes. Unlike the analysis requests there is
 * no document to export (the model does not exist yet), so the path is forwarded as it is; the editor writes the
 * file, and its diagnostics appear as for any model it opens.
 */
import type { CancellationToken, Connection } from 'vscode-languageserver';
import type { ImportResult, RequestParamsOf } from '@chainlab/contract';
import { ANALYSIS_TIMEOUT_MS } from './analysis-requests.js';
import { backendResponseError } from './backend-errors.js';
import type { SharedBackend } from './shared-backend.js';

export function registerImportRequests(connection: Connection, backend: SharedBackend): void {
    connection.onRequest(
        'chainlab/importModel',
        async (params: RequestParamsOf<'chainlab/importModel'>, token: CancellationToken): Promise<ImportResult> => {
            const { progressToken: _token, ...forwarded } = params;
            try {
                return await backend.client().request('interchange/import', forwarded, {
                    timeoutMs: ANALYSIS_TIMEOUT_MS,
                    cancellation: token,
                });
            } catch (error) {
                throw backendResponseError(error, 'chainlab/importModel', token);
            }
        },
    );
}
