/**
 * After a run the editor offers *Update ETP from measurement* only where a ptts component has `etp chain X`
 * (the language server answers `chainlab/etpOffer`); elsewhere it offers the server's edit that appends a
 * minimal ptts around the chain, which validates without errors and makes the update work.
 */
import { EmptyFileSystem, type LangiumDocument } from 'langium';
import { parseHelper } from 'langium/test';
import { describe, expect, test } from 'vitest';
import type { Connection, TextEdit } from 'vscode-languageserver';
import { METHOD_SCHEMAS, type EtpOfferResult } from '@chainlab/contract';
import { createChainServices } from '../../src/dsl/chain-module.js';
import type { Model } from '../../src/generated/ast.js';
import { measuredEtpEdits, type Measurement } from '../../src/server/measured-etp.js';
import { registerMeasurementRequests } from '../../src/server/measurement-requests.js';
import { etpOffer } from '../../src/server/ptts-around-chain.js';
import { RunResults } from '../../src/server/run-results.js';
import { schemaErrors } from '../contract/contract-ajv.js';

const { shared, Chain } = createChainServices(EmptyFileSystem);
const parse = parseHelper<Model>(Chain);

const boxes = [
    'platform Here { cores 2 }',
    'image Img 64 x 64 of u8',
    'box Source { out o: Img  source period 10 ms  cost 100 us }',
    'box Free { out o: Img  source  cost 100 us }',
    'box Gain { in i: Img  out o: Img  kernel gain(2)  split rows  depends pointwise  cost 200 us }',
    'box Sink { in i: Img  kernel sink  cost 10 us }',
];
const chain = (name: string, source = 'Source') =>
    `chain ${name} on Here {\n    s: ${source}  g: Gain  k: Sink\n    s.o -> g.i  g.o -> k.i\n}`;

const withPtts = [
    ...boxes,
    chain('Small'),
    'ptts System {',
    '    component Process period 10 ms etp chain Small',
    '    component Wall period 16.7 ms etp point 8 ms',
    '}',
].join('\n');
const withoutPtts = [...boxes, chain('Small'), 'target here { local }'].join('\n');

const measured: Measurement = {
    scenario: 'baseline',
    points: [
        [2_400_000, 3],
        [12_300_000, 1],
    ],
};

/** The text with the edits of one document applied (ranges of the original text). */
function applied(document: LangiumDocument, edits: TextEdit[]): string {
    const text = document.textDocument.getText();
    const at = (edit: TextEdit) => document.textDocument.offsetAt(edit.range.start);
    return [...edits]
        .sort((a, b) => at(b) - at(a))
        .reduce((t, e) => t.slice(0, at(e)) + e.newText + t.slice(document.textDocument.offsetAt(e.range.end)), text);
}

const errorsOf = (document: LangiumDocument) =>
    (document.diagnostics ?? []).filter(d => d.severity === 1).map(d => d.message);

/** The created ptts applied to the document, parsed and validated. */
async function created(document: LangiumDocument<Model>, offer: EtpOfferResult) {
    const edits = offer.create!.edit.changes[document.textDocument.uri];
    expect(edits).toHaveLength(1);
    return parse(applied(document, edits), { validation: true });
}

describe('the ETP offer after a run', () => {
    test('with `etp chain X` in a ptts: Update ETP from measurement, nothing to create', async () => {
        const document = await parse(withPtts, { validation: true });
        const offer = etpOffer(document, 'Small', measured);
        expect(offer).toEqual({ measured: true, components: 1, create: null });
        expect(schemaErrors(METHOD_SCHEMAS.languageServer['chainlab/etpOffer'].result, offer)).toEqual([]);
        expect(etpOffer(document, 'Small', undefined).measured).toBe(false);
    });

    test('without: a ptts around the chain that validates, has `etp chain X` and takes the measurement', async () => {
        const document = await parse(withoutPtts, { validation: true });
        const offer = etpOffer(document, 'Small', measured);
        expect(offer.measured).toBe(true);
        expect(offer.components).toBe(0);
        expect(offer.create?.ptts).toBe('SmallSystem');
        expect(schemaErrors(METHOD_SCHEMAS.languageServer['chainlab/etpOffer'].result, offer)).toEqual([]);
        const [edit] = offer.create!.edit.changes[document.textDocument.uri];
        // appended after the last element, a blank line between; the period is the chain's source's
        expect(edit.range.start).toEqual(document.textDocument.positionAt(withoutPtts.length));
        expect(edit.newText).toBe(
            '\n\nptts SmallSystem {\n    component Small period 10 ms offset 0 ms etp chain Small\n}\n',
        );
        const after = await created(document, offer);
        expect(after.parseResult.parserErrors).toEqual([]);
        expect(errorsOf(after)).toEqual([]);
        expect(after.diagnostics).toEqual([]); // no warning either (the periods agree)
        expect(etpOffer(after, 'Small', measured)).toEqual({ measured: true, components: 1, create: null });
        // and the update then writes the measurement there, still without errors
        const updated = await parse(applied(after, measuredEtpEdits(after, 'Small', measured)), { validation: true });
        expect(updated.textDocument.getText()).toContain('component Small period 10 ms offset 0 ms etp pmf { ');
        expect(errorsOf(updated)).toEqual([]);
    });

    test('a free name for the ptts, and a period for a free-running chain', async () => {
        const text = [...boxes, chain('Small', 'Free'), 'target SmallSystem { local }', 'ptts SmallSystem2 { }'];
        const document = await parse(text.join('\n') + '\n', { validation: true });
        const offer = etpOffer(document, 'Small', measured);
        expect(offer.create?.ptts).toBe('SmallSystem3');
        // no source period: the longest measured latency (12.3 ms) rounded up to a millisecond
        expect(offer.create!.edit.changes[document.textDocument.uri][0].newText).toBe(
            '\nptts SmallSystem3 {\n    component Small period 13 ms offset 0 ms etp chain Small\n}\n',
        );
        const after = await created(document, offer);
        // only the empty ptts SmallSystem2 of the original text is in error
        expect(errorsOf(after)).toEqual(["PTTS chain 'SmallSystem2' has no components."]);
        expect(
            etpOffer(document, 'Small', undefined).create!.edit.changes[document.textDocument.uri][0].newText,
        ).toMatch(/period 100 ms offset/);
    });

    test('a chain the document does not have: nothing to offer', async () => {
        const document = await parse(withoutPtts, { validation: true });
        expect(etpOffer(document, 'Nope', measured)).toEqual({ measured: true, components: 0, create: null });
    });
});

describe('chainlab/etpOffer', () => {
    test('answers from the run the server kept and the document as it is now', async () => {
        const handlers = new Map<string, (params: unknown) => Promise<unknown>>();
        const connection = { onRequest: (method: string, handler: never) => handlers.set(method, handler) };
        const runs = new RunResults();
        registerMeasurementRequests(connection as unknown as Connection, shared, runs);
        const document = await parse(withoutPtts);
        const uri = document.uri.toString();
        const offer = (params: object) => handlers.get('chainlab/etpOffer')!(params) as Promise<EtpOfferResult>;
        const before = await offer({ uri, chain: 'Small' });
        expect(before.measured).toBe(false);
        expect(before.create?.ptts).toBe('SmallSystem');
        runs.set(uri, 'Small', { scenarios: [{ scenario: 'baseline', etp: [[2_000_000, 1]] }] });
        expect((await offer({ uri, chain: 'Small' })).measured).toBe(true);
        await expect(offer({ chain: 'Small' })).rejects.toThrow(/needs the document uri and the chain/);
    });
});
