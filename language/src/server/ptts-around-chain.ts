/**
 * What the editor offers for a chain's measurement after a run: *Update ETP from measurement* only works where a
 * ptts component has `etp chain X`; elsewhere the measurement has nowhere to go, so the offer is a minimal ptts
 * whose one component runs the chain, appended to the document as one edit (the editor applies it, so undo works).
 */
import type { LangiumDocument } from 'langium';
import type { TextEdit } from 'vscode-languageserver';
import type { EtpOfferResult, PttsAroundChain } from '@chainlab/contract';
import { isChain, type Chain, type Model } from '../generated/ast.js';
import { boxSource, chainInstances } from '../dsl/model-util.js';
import { durationNs, formatNs } from '../dsl/units.js';
import { chainEtps, type Measurement } from './measured-etp.js';

const MS = 1_000_000n;
/** The period of a free-running chain that was not measured either: any positive one makes a valid ptts. */
const DEFAULT_PERIOD_NS = 100n * MS;

/** The offer for chain `chain` of the document, `measurement` the one its latest run left (if any). */
export function etpOffer(
    document: LangiumDocument<Model>,
    chain: string,
    measurement: Measurement | undefined,
): EtpOfferResult {
    const components = chainEtps(document, chain).length;
    const node = document.parseResult.value.elements.filter(isChain).find(c => c.name === chain);
    return {
        measured: measurement !== undefined,
        components,
        create: components === 0 && node ? pttsAroundChain(document, node, measurement) : null,
    };
}

/**
 * The ptts `<Chain>System { component <Chain> period P offset 0 ms etp chain <Chain> }` at the end of the document.
 * The component is triggered at the chain's own rate, so the validator finds no period mismatch (unless its
 * sources disagree among themselves).
 */
export function pttsAroundChain(
    document: LangiumDocument<Model>,
    chain: Chain,
    measurement: Measurement | undefined,
): PttsAroundChain {
    const text = document.textDocument.getText();
    const eol = text.includes('\r\n') ? '\r\n' : '\n';
    const ptts = freeName(document.parseResult.value, `${chain.name}System`);
    const period = formatNs(chainPeriodNs(chain, measurement));
    const body = [
        `ptts ${ptts} {`,
        `    component ${chain.name} period ${period} offset 0 ms etp chain ${chain.name}`,
        '}',
        '',
    ].join(eol);
    // one blank line between the last element and the new ptts, however the document ends
    const gap = text.trim() === '' || text.endsWith(eol + eol) ? '' : text.endsWith(eol) ? eol : eol + eol;
    const end = document.textDocument.positionAt(text.length);
    const edit: TextEdit = { range: { start: end, end }, newText: gap + body };
    return { ptts, edit: { changes: { [document.textDocument.uri]: [edit] } } };
}

/**
 * The period the chain runs at: its sources' (the largest where they differ, as the planner takes it, and so the
 * period the run used). A free-running chain gets its longest measured latency rounded up to a millisecond: a
 * period it keeps up with.
 */
export function chainPeriodNs(chain: Chain, measurement: Measurement | undefined): bigint {
    const periods = chainInstances(chain).flatMap(instance => {
        const box = instance.box?.ref;
        const period = box ? durationNs(boxSource(box)?.period) : undefined;
        return period?.ok && period.value > 0n ? [period.value] : [];
    });
    if (periods.length > 0) return periods.reduce((a, b) => (b > a ? b : a));
    const longest = measurement?.points.reduce((max, [ns]) => Math.max(max, ns), 0) ?? 0;
    if (longest <= 0) return DEFAULT_PERIOD_NS;
    return ((BigInt(Math.ceil(longest)) + MS - 1n) / MS) * MS;
}

/** `name`, or `name2`, `name3`, … : the first that no element of the model has (element names are one scope). */
function freeName(model: Model, name: string): string {
    const taken = new Set(model.elements.map(e => e.name));
    if (!taken.has(name)) return name;
    let n = 2;
    while (taken.has(`${name}${n}`)) n++;
    return `${name}${n}`;
}
