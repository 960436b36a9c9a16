/**
 * Analysis requests of the language server (`chainlab/analyze`, `chainlab/plan`, ...): the editor names a
 * document and an element; the server exports the document's IR and asks the Python backend over the
 * same JSON-RPC interface the CLI uses. Requests time out and can be cancelled, and a dead backend is
 * restarted on the next request, so an analysis never hangs the language server.
 */
import { URI, type LangiumDocument } from 'langium';
import type { LangiumSharedServices } from 'langium/lsp';
import { ResponseError, type CancellationToken, type Connection } from 'vscode-languageserver';
import { BackendModelError, BackendUnavailableError, RequestCancelledError } from '../backend-rpc/backend-client.js';
import type { SharedBackend } from './shared-backend.js';
import type { Model } from '../generated/ast.js';
import { documentExportContext } from '../ir/document-export-context.js';
import { exportIr, IrExportError } from '../ir/ir-export.js';
import type { IrModel } from '../ir/ir-types.js';
import { whenValidated } from '../dsl/document-ready.js';

export const ANALYSIS_TIMEOUT_MS = 120_000;

interface RequestSpec {
    method: string;
    /** The parameter that names the model element. */
    element: 'ptts' | 'chain';
    timeoutMs?: number;
    /** A run: cancelling it interrupts the backend (it stops the run and keeps what was measured). */
    run?: boolean;
}

/**
 * Request name → backend method. Progress goes to the editor as `chainlab/progress` when the params carry a
 * progressToken.
 */
export const ANALYSIS_REQUESTS: Record<string, RequestSpec> = {
    'chainlab/analyze': { method: 'ptts/analyze', element: 'ptts' },
    'chainlab/simulate': { method: 'ptts/simulate', element: 'ptts' },
    'chainlab/explore': { method: 'ptts/explore', element: 'ptts' },
    'chainlab/plan': { method: 'plan/make', element: 'chain' },
    'chainlab/generate': { method: 'run/generate', element: 'chain' },
    'chainlab/deploy': { method: 'deploy/run', element: 'chain', timeoutMs: 4 * 3600_000, run: true },
};

export interface ProgressParams { token: string; fraction: number; message: string }

/** Error codes of analysis requests (LSP reserves -32899..-32800). */
export const AnalysisErrorCodes = { modelError: -32001, backendUnavailable: -32002, cancelled: -32800 } as const;

export interface AnalysisParams { uri: string; [element: string]: unknown }

/** Told about every successful analysis (the diagrams and hovers show the latest one). */
export type AnalysisListener = (request: string, uri: string, params: AnalysisParams, result: unknown) => void;

export function registerAnalysisRequests(connection: Connection, shared: LangiumSharedServices, backend: SharedBackend, onResult?: AnalysisListener): void {
    connection.onShutdown(async () => { await backend.stop(); });

    for (const [request, { method, timeoutMs, run }] of Object.entries(ANALYSIS_REQUESTS)) {
        connection.onRequest(request, async (params: AnalysisParams, token: CancellationToken) => {
            const ir = await documentIr(shared, params?.uri);
            const { uri: _uri, progressToken, ...rest } = params;
            const uri = URI.parse(params.uri);
            const onProgress = typeof progressToken === 'string'
                ? (p: { fraction: number; message: string }) => { void connection.sendNotification('chainlab/progress', { token: progressToken, ...p } satisfies ProgressParams); }
                : undefined;
            const client = backend.client();
            // a run is stopped by interrupting the backend, which returns what was measured so far
            const interrupt = run ? token.onCancellationRequested(() => client.interrupt()) : undefined;
            try {
                const file = run ? { file: uri.scheme === 'file' ? uri.fsPath : params.uri } : {};
                const result = await client.request(method, { ...file, ...rest, ir },
                                                    { timeoutMs: timeoutMs ?? ANALYSIS_TIMEOUT_MS, cancellation: run ? undefined : token, onProgress });
                onResult?.(request, params.uri, params, result);
                return result;
            } catch (error) {
                if (run && token.isCancellationRequested) throw new ResponseError(AnalysisErrorCodes.cancelled, `${request} stopped: ${(error as Error).message}`);
                if (error instanceof BackendModelError) throw new ResponseError(AnalysisErrorCodes.modelError, error.message, error.data);
                if (error instanceof BackendUnavailableError) throw new ResponseError(AnalysisErrorCodes.backendUnavailable, error.message);
                if (error instanceof RequestCancelledError || token.isCancellationRequested) throw new ResponseError(AnalysisErrorCodes.cancelled, `${request} cancelled`);
                throw new ResponseError(AnalysisErrorCodes.backendUnavailable, (error as Error).message);
            } finally {
                interrupt?.dispose();
            }
        });
    }
}

/** The IR of an open (or on-disk) document after it is validated; refused while it has errors. */
async function documentIr(shared: LangiumSharedServices, uriText: unknown): Promise<IrModel> {
    if (typeof uriText !== 'string') throw new ResponseError(AnalysisErrorCodes.modelError, 'the request needs the document uri');
    const uri = URI.parse(uriText);
    const documents = shared.workspace.LangiumDocuments;
    const document = (documents.hasDocument(uri) ? documents.getDocument(uri) : await documents.getOrCreateDocument(uri)) as LangiumDocument<Model>;
    await whenValidated(shared, document);
    const errors = (document.diagnostics ?? []).filter(d => d.severity === 1);
    if (errors.length > 0) {
        const first = errors[0];
        throw new ResponseError(AnalysisErrorCodes.modelError,
            `${uri.path}:${first.range.start.line + 1}:${first.range.start.character + 1}: the model has ${errors.length} error(s); fix them before analysing (first: ${first.message})`);
    }
    try {
        return exportIr(document.parseResult.value, documentExportContext(uri));
    } catch (error) {
        if (error instanceof IrExportError) throw new ResponseError(AnalysisErrorCodes.modelError, error.message);
        throw error;
    }
}

