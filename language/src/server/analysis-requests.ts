/**
 * Analysis requests of the language server (`chainlab/analyze`, `chainlab/plan`, ...): the editor names a
 * document and an element; the server exports the document's IR and asks the Python backend over the
 * same JSON-RPC interface the CLI uses. Requests time out and can be cancelled, and a dead backend is
 * restarted on the next request, so an analysis never hangs the language server.
 */
import { URI, type LangiumDocument } from 'langium';
import type { LangiumSharedServices } from 'langium/lsp';
import { ResponseError, type CancellationToken, type Connection } from 'vscode-languageserver';
import {
    ERROR_CODES,
    FORWARDED_REQUESTS,
    type BackendMethod,
    type LanguageServerNotifications,
    type ParamsOf,
    type RequestParamsOf,
    type RequestResultOf,
} from '@chainlab/contract';
import { backendResponseError } from './backend-errors.js';
import type { SharedBackend } from './shared-backend.js';
import type { Model } from '../generated/ast.js';
import { documentExportContext } from '../ir/document-export-context.js';
import { exportIr, IrExportError } from '../ir/ir-export.js';
import type { IrModel } from '../ir/ir-types.js';
import { whenValidated } from '../dsl/document-ready.js';

export const ANALYSIS_TIMEOUT_MS = 120_000;

/** The requests that forward to a backend method (the contract names which: FORWARDED_REQUESTS). */
export type AnalysisRequest = keyof typeof FORWARDED_REQUESTS;

interface RequestSpec {
    /** The parameter that names the model element. */
    element: 'ptts' | 'chain';
    timeoutMs?: number;
    /** A run: cancelling it interrupts the backend (it stops the run and keeps what was measured). */
    run?: boolean;
}

/** How each is served. Progress goes to the editor as `chainlab/progress` when the params carry a progressToken. */
export const ANALYSIS_REQUESTS: Record<AnalysisRequest, RequestSpec> = {
    'chainlab/analyze': { element: 'ptts' },
    'chainlab/simulate': { element: 'ptts' },
    // a sweep shows progress and is cancelled by the user: hours, like a run, not the analyses' two minutes
    'chainlab/explore': { element: 'ptts', timeoutMs: 4 * 3600_000 },
    'chainlab/nearbyPeriods': { element: 'ptts' },
    'chainlab/plan': { element: 'chain' },
    'chainlab/generate': { element: 'chain' },
    'chainlab/deploy': { element: 'chain', timeoutMs: 4 * 3600_000, run: true },
};

export type AnalysisParams = RequestParamsOf<AnalysisRequest>;

/** Told about every successful analysis (the diagrams and hovers show the latest one). */
export type AnalysisListener = (
    request: AnalysisRequest,
    uri: string,
    params: AnalysisParams,
    result: RequestResultOf<AnalysisRequest>,
) => void;

export function registerAnalysisRequests(
    connection: Connection,
    shared: LangiumSharedServices,
    backend: SharedBackend,
    onResult?: AnalysisListener,
): void {
    connection.onShutdown(async () => {
        await backend.stop();
    });

    for (const [request, { timeoutMs, run }] of Object.entries(ANALYSIS_REQUESTS) as Array<
        [AnalysisRequest, RequestSpec]
    >) {
        const method: BackendMethod = FORWARDED_REQUESTS[request];
        connection.onRequest(request, async (params: AnalysisParams, token: CancellationToken) => {
            const ir = await documentIr(shared, params?.uri);
            const { uri: _uri, progressToken, ...rest } = params;
            const uri = URI.parse(params.uri);
            const onProgress =
                typeof progressToken === 'string'
                    ? (p: { fraction: number; message: string }) => {
                          void connection.sendNotification('chainlab/progress', {
                              token: progressToken,
                              ...p,
                          } satisfies LanguageServerNotifications['chainlab/progress']);
                      }
                    : undefined;
            const client = backend.client();
            // a run is stopped by interrupting the backend, which returns what was measured so far
            const interrupt = run ? token.onCancellationRequested(() => client.interrupt()) : undefined;
            try {
                const file = run ? { file: uri.scheme === 'file' ? uri.fsPath : params.uri } : {};
                // the params are the backend method's without the IR (the contract derives both from the same options)
                const forwarded = { ...file, ...rest, ir } as ParamsOf<typeof method>;
                const result = await client.request(method, forwarded, {
                    timeoutMs: timeoutMs ?? ANALYSIS_TIMEOUT_MS,
                    cancellation: run ? undefined : token,
                    onProgress,
                });
                onResult?.(request, params.uri, params, result);
                return result;
            } catch (error) {
                if (run && token.isCancellationRequested)
                    throw new ResponseError(
                        ERROR_CODES.REQUEST_CANCELLED,
                        `${request} stopped: ${(error as Error).message}`,
                    );
                throw backendResponseError(error, request, token);
            } finally {
                interrupt?.dispose();
            }
        });
    }
}

/** The IR of an open (or on-disk) document after it is validated; refused while it has errors. */
async function documentIr(shared: LangiumSharedServices, uriText: unknown): Promise<IrModel> {
    if (typeof uriText !== 'string')
        throw new ResponseError(ERROR_CODES.MODEL_ERROR, 'the request needs the document uri');
    const uri = URI.parse(uriText);
    const documents = shared.workspace.LangiumDocuments;
    const document = (
        documents.hasDocument(uri) ? documents.getDocument(uri) : await documents.getOrCreateDocument(uri)
    ) as LangiumDocument<Model>;
    await whenValidated(shared, document);
    const errors = (document.diagnostics ?? []).filter(d => d.severity === 1);
    if (errors.length > 0) {
        const first = errors[0];
        throw new ResponseError(
            ERROR_CODES.MODEL_ERROR,
            `${uri.path}:${first.range.start.line + 1}:${first.range.start.character + 1}: the model has ${errors.length} error(s); fix them before analysing (first: ${first.message})`,
        );
    }
    try {
        return exportIr(document.parseResult.value, documentExportContext(uri));
    } catch (error) {
        if (error instanceof IrExportError) throw new ResponseError(ERROR_CODES.MODEL_ERROR, error.message);
        throw error;
    }
}
