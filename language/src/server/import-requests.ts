/**
 * `chainlab/importModel`: the editor names a file another tool wrote (SDF3, PREESM, Amalthea); the server asks the
 * backend's `interchange/import` and returns the .chain text with its notes. Unlike the analysis requests there is
 * no document to export (the model does not exist yet), so the path is forwarded as it is; the editor writes the
 * file, and its diagnostics appear as for any model it opens.
 */
import { ResponseError, type CancellationToken, type Connection } from 'vscode-languageserver';
import { ERROR_CODES, type ImportResult, type RequestParamsOf } from '@chainlab/contract';
import {
    BackendModelError,
    BackendUnavailableError,
    ContractMismatchError,
    RequestCancelledError,
} from '../backend-rpc/backend-client.js';
import { ANALYSIS_TIMEOUT_MS } from './analysis-requests.js';
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
                throw responseError(error, token);
            }
        },
    );
}

/** The backend's failure as the editor reads it (a refused file is a model error naming file, line, element). */
function responseError(error: unknown, token: CancellationToken): ResponseError<unknown> {
    if (error instanceof BackendModelError)
        return new ResponseError(ERROR_CODES.MODEL_ERROR, error.message, error.data);
    if (error instanceof ContractMismatchError)
        return new ResponseError(ERROR_CODES.CONTRACT_MISMATCH, error.message, error.data);
    if (error instanceof RequestCancelledError || token.isCancellationRequested)
        return new ResponseError(ERROR_CODES.REQUEST_CANCELLED, 'chainlab/importModel cancelled');
    if (error instanceof BackendUnavailableError)
        return new ResponseError(ERROR_CODES.BACKEND_UNAVAILABLE, error.message);
    return new ResponseError(ERROR_CODES.BACKEND_UNAVAILABLE, (error as Error).message);
}
