/**
 * A failed backend request as the editor reads it: the one mapping of the backend client's errors to the language
 * server's error codes (a refused model or file is a model error naming file, line and element; a cancelled request
 * says so; anything else means the backend could not answer).
 */
import { ResponseError, type CancellationToken } from 'vscode-languageserver';
import { ERROR_CODES } from '@chainlab/contract';
import {
    BackendModelError,
    BackendUnavailableError,
    ContractMismatchError,
    RequestCancelledError,
} from '../backend-rpc/backend-client.js';

export function backendResponseError(
    error: unknown,
    request: string,
    token: CancellationToken,
): ResponseError<unknown> {
    if (error instanceof BackendModelError)
        return new ResponseError(ERROR_CODES.MODEL_ERROR, error.message, error.data);
    if (error instanceof ContractMismatchError)
        return new ResponseError(ERROR_CODES.CONTRACT_MISMATCH, error.message, error.data);
    if (error instanceof RequestCancelledError || token.isCancellationRequested)
        return new ResponseError(ERROR_CODES.REQUEST_CANCELLED, `${request} cancelled`);
    if (error instanceof BackendUnavailableError)
        return new ResponseError(ERROR_CODES.BACKEND_UNAVAILABLE, error.message);
    return new ResponseError(ERROR_CODES.BACKEND_UNAVAILABLE, (error as Error).message);
}
