/**
 * `chainlab/etpFromMeasurement`: the edit that writes the latest measured run of a chain into every
 * `etp chain X` of the document (the same edit as the "Update ETP from measurement" quick fix). The
 * editor applies it, so undo works; the extension keeps no DSL text and no statistics of its own. A run whose
 * latencies are no execution-time profile (overloaded, cut short) comes with its `concern`: the editor asks first.
 * `chainlab/etpOffer` tells the editor, after a run, whether that edit can work or a ptts around the chain is needed.
 */
import type { LangiumSharedServices } from 'langium/lsp';
import { ResponseError, type Connection } from 'vscode-languageserver';
import { ERROR_CODES, type RequestParamsOf, type RequestResultOf } from '@chainlab/contract';
import { validatedDocument } from '../dsl/document-ready.js';
import { measuredEtpEdits, runMeasurement } from './measured-etp.js';
import { etpOffer } from './ptts-around-chain.js';
import type { RunResults } from './run-results.js';

type EtpFromMeasurementParams = RequestParamsOf<'chainlab/etpFromMeasurement'>;
type EtpFromMeasurementResult = RequestResultOf<'chainlab/etpFromMeasurement'>;
type EtpOfferParams = RequestParamsOf<'chainlab/etpOffer'>;
type EtpOfferResult = RequestResultOf<'chainlab/etpOffer'>;

export function registerMeasurementRequests(
    connection: Connection,
    shared: LangiumSharedServices,
    runs: RunResults,
): void {
    connection.onRequest(
        'chainlab/etpFromMeasurement',
        async (params: EtpFromMeasurementParams): Promise<EtpFromMeasurementResult> => {
            const run =
                typeof params?.uri === 'string' && typeof params.chain === 'string'
                    ? runs.get(params.uri, params.chain)
                    : undefined;
            const measurement = run && runMeasurement(run);
            if (!measurement)
                throw new ResponseError(
                    ERROR_CODES.MODEL_ERROR,
                    `no measured run of chain ${params?.chain}: run it first (Run on target)`,
                );
            const document = await validatedDocument(shared, params.uri);
            const edits = measuredEtpEdits(document, params.chain, measurement);
            if (edits.length === 0)
                throw new ResponseError(ERROR_CODES.MODEL_ERROR, `no component has \`etp chain ${params.chain}\``);
            return {
                scenario: measurement.scenario,
                components: edits.length,
                edit: { changes: { [document.textDocument.uri]: edits } },
                concern: measurement.concern ?? null,
            };
        },
    );
    connection.onRequest('chainlab/etpOffer', async (params: EtpOfferParams): Promise<EtpOfferResult> => {
        if (typeof params?.uri !== 'string' || typeof params.chain !== 'string')
            throw new ResponseError(ERROR_CODES.MODEL_ERROR, 'the request needs the document uri and the chain');
        const run = runs.get(params.uri, params.chain);
        return etpOffer(await validatedDocument(shared, params.uri), params.chain, run && runMeasurement(run));
    });
}
