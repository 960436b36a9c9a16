/**
 * `chainlab/importTimings`: measured times from a CSV as one edit of the document. The backend reads the CSV
 * (`interchange/timings`, every refusal with its row); the language writes the settings (dsl/timings-edits.ts),
 * the same edits the CLI's `import-timings` writes. The editor applies the edit, so undo works.
 */
import type { LangiumSharedServices } from 'langium/lsp';
import { ResponseError, type CancellationToken, type Connection } from 'vscode-languageserver';
import { ERROR_CODES, type RequestParamsOf, type RequestResultOf } from '@chainlab/contract';
import { validatedDocument } from '../dsl/document-ready.js';
import {
    defaultTimingsTarget,
    TimingsEditError,
    timingsEdits,
    timingsNames,
    type TimingsTarget,
} from '../dsl/timings-edits.js';
import { ANALYSIS_TIMEOUT_MS } from './analysis-requests.js';
import { backendResponseError } from './backend-errors.js';
import type { SharedBackend } from './shared-backend.js';

type ImportTimingsParams = RequestParamsOf<'chainlab/importTimings'>;
type ImportTimingsResult = RequestResultOf<'chainlab/importTimings'>;

export function registerTimingsRequests(
    connection: Connection,
    shared: LangiumSharedServices,
    backend: SharedBackend,
): void {
    connection.onRequest(
        'chainlab/importTimings',
        async (params: ImportTimingsParams, token: CancellationToken): Promise<ImportTimingsResult> => {
            if (typeof params?.uri !== 'string' || typeof params.csv !== 'string')
                throw new ResponseError(ERROR_CODES.MODEL_ERROR, 'the request needs the document uri and the CSV');
            const document = await validatedDocument(shared, params.uri);
            if ((document.diagnostics ?? []).some(d => (d.severity ?? 1) === 1))
                throw new ResponseError(ERROR_CODES.MODEL_ERROR, 'the model has errors: fix them first');
            try {
                const model = document.parseResult.value;
                const target: TimingsTarget =
                    params.chain !== undefined
                        ? { kind: 'chain', name: params.chain }
                        : params.ptts !== undefined
                          ? { kind: 'ptts', name: params.ptts }
                          : defaultTimingsTarget(model);
                const names = [...timingsNames(model, target).keys()];
                const result = await backend
                    .client()
                    .request(
                        'interchange/timings',
                        { path: params.csv, names },
                        { timeoutMs: ANALYSIS_TIMEOUT_MS, cancellation: token },
                    );
                const as = params.as ?? (target.kind === 'chain' ? 'cost' : 'etp');
                const edited = timingsEdits(document, target, result, as, params.statistic ?? 'median');
                return {
                    edit: { changes: { [document.textDocument.uri]: edited.edits } },
                    settings: edited.settings.map(s => ({ ...s })),
                    untouched: edited.untouched,
                    rows: result.rows,
                };
            } catch (error) {
                throw error instanceof TimingsEditError
                    ? new ResponseError(ERROR_CODES.MODEL_ERROR, error.message)
                    : backendResponseError(error, 'chainlab/importTimings', token);
            }
        },
    );
}
