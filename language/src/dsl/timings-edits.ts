/**
 * Measured times (the backend's `interchange/timings` result) as edits of a model: `cost <statistic>` in each named
 * box of a chain (or `etp pmf { … }` there), `etp pmf { … }` in each named component of a ptts (or `etp point
 * <statistic>`). An existing cost or etp is replaced; a box or component without one gets it after its last
 * setting, laid out as its neighbours are. The CLI applies the edits to the file, the editor as one WorkspaceEdit.
 */
import type { LangiumDocument } from 'langium';
import type { Position, TextEdit } from 'vscode-languageserver';
import type { NameTimings, TimingsResult, TimingsStats } from '@chainlab/contract';
import {
    isChain,
    isCostSetting,
    isEtpSetting,
    isPtts,
    type Box,
    type Component,
    type Model,
} from '../generated/ast.js';
import { chainInstances, pttsComponents } from './model-util.js';
import { pmfText } from './pmf-text.js';
import { formatNs } from './units.js';

export const TIMINGS_STATISTICS = ['mean', 'median', 'p90', 'p99', 'max'] as const;
export type TimingsStatistic = (typeof TIMINGS_STATISTICS)[number];
export type TimingsAs = 'cost' | 'etp';

/** Which chain or ptts the times are for. */
export type TimingsTarget = { kind: 'chain'; name: string } | { kind: 'ptts'; name: string };

/** A refusal in words (an unknown chain, two names for one box, a statistic of 0 ns). */
export class TimingsEditError extends Error {}

/** What one edit sets, for the message that says so: `box Gain: cost 1.5 ms (median of 300 samples)`. */
export interface TimingsSetting {
    readonly element: string;
    readonly text: string;
    readonly detail: string;
}

export interface TimingsEdits {
    readonly edits: TextEdit[];
    readonly settings: TimingsSetting[];
    /** Names of the chain or ptts the CSV has no times for (left as they are). */
    readonly untouched: string[];
}

/** Where the times go when the command names neither --chain nor --ptts: the model's only chain, else only ptts. */
export function defaultTimingsTarget(model: Model): TimingsTarget {
    const chains = model.elements.filter(isChain).map(c => c.name);
    const ptts = model.elements.filter(isPtts).map(p => p.name);
    if (chains.length === 1 && ptts.length === 0) return { kind: 'chain', name: chains[0] };
    if (ptts.length === 1 && chains.length === 0) return { kind: 'ptts', name: ptts[0] };
    throw new TimingsEditError(
        `name the chain or ptts the times are for (--chain or --ptts): the model has ${describe('chain', chains)} and ${describe('ptts', ptts)}`,
    );
}

const describe = (kind: string, names: string[]) => (names.length ? `${kind} ${names.join(', ')}` : `no ${kind}`);

/** The names a row of the CSV may have: the chain's instances and their boxes, or the ptts's components. */
export function timingsNames(model: Model, target: TimingsTarget): Map<string, Box | Component> {
    if (target.kind === 'ptts') {
        const ptts = model.elements.filter(isPtts).find(p => p.name === target.name);
        if (!ptts) throw new TimingsEditError(`no ptts named ${target.name} (${describe('ptts', pttsNames(model))})`);
        return new Map(pttsComponents(ptts).map(c => [c.name, c]));
    }
    const chain = model.elements.filter(isChain).find(c => c.name === target.name);
    if (!chain) {
        const chains = model.elements.filter(isChain).map(c => c.name);
        throw new TimingsEditError(`no chain named ${target.name} (${describe('chain', chains)})`);
    }
    const names = new Map<string, Box | Component>();
    for (const instance of chainInstances(chain)) {
        const box = instance.box?.ref;
        if (!box) continue;
        names.set(box.name, box);
        names.set(instance.name, box);
    }
    return names;
}

const pttsNames = (model: Model) => model.elements.filter(isPtts).map(p => p.name);

/**
 * The edits that write `result` into the chain or ptts `target` of the validated `document`.
 *
 * @param as `cost` writes the statistic (a box's `cost`, a component's `etp point`); `etp` the binned times.
 * @throws TimingsEditError two names of the CSV for one box, or a statistic of 0 ns as a cost.
 */
export function timingsEdits(
    document: LangiumDocument<Model>,
    target: TimingsTarget,
    result: Pick<TimingsResult, 'timings'>,
    as: TimingsAs,
    statistic: TimingsStatistic,
): TimingsEdits {
    const names = timingsNames(document.parseResult.value, target);
    const byElement = new Map<Box | Component, NameTimings>();
    const namedBy = new Map<Box | Component, string>();
    for (const timings of result.timings) {
        const element = names.get(timings.name);
        if (!element) throw new TimingsEditError(`${target.kind} ${target.name} has no ${timings.name}`);
        const earlier = namedBy.get(element);
        if (earlier !== undefined)
            throw new TimingsEditError(
                `box ${element.name} has times under two names, ${earlier} and ${timings.name}: keep one of them`,
            );
        namedBy.set(element, timings.name);
        byElement.set(element, timings);
    }
    const text = document.textDocument.getText();
    const edits: TextEdit[] = [];
    const settings: TimingsSetting[] = [];
    for (const [element, timings] of byElement) {
        const setting = settingText(element, timings, as, statistic);
        edits.push(settingEdit(element, setting, text));
        const kind = element.$type === 'Box' ? 'box' : 'component';
        settings.push({ element: `${kind} ${element.name}`, text: setting, detail: detailOf(timings, as, statistic) });
    }
    const touched = new Set(byElement.keys());
    const untouched = [...new Set(names.values())].filter(e => !touched.has(e)).map(e => e.name);
    return { edits, settings, untouched };
}

/** `cost 1.5 ms`, `etp point 1.5 ms` or `etp pmf { … }`. */
function settingText(element: Box | Component, timings: NameTimings, as: TimingsAs, statistic: TimingsStatistic) {
    if (as === 'etp')
        return `etp ${pmfText(timings.bins.map(([time, count]) => [`${time} ${timings.unit}`, BigInt(count)]))}`;
    const ns = timings.stats[`${statistic}_ns` as keyof TimingsStats];
    if (element.$type === 'Box' && ns <= 0)
        throw new TimingsEditError(`the ${statistic} of ${timings.name} is 0 ns: a cost must be positive`);
    return element.$type === 'Box' ? `cost ${formatNs(ns)}` : `etp point ${formatNs(ns)}`;
}

function detailOf(timings: NameTimings, as: TimingsAs, statistic: TimingsStatistic): string {
    const samples = `${timings.samples} sample${timings.samples === 1 ? '' : 's'}`;
    if (as === 'cost') return `${statistic} of ${samples}`;
    const bins = timings.bin_ns === null ? 'exact times' : `bins of ${formatNs(timings.bin_ns)}`;
    return `${timings.bins.length} point(s) from ${samples}, ${bins}`;
}

/** Replaces the element's cost or etp (whichever `setting` is), else inserts it after its last setting. */
function settingEdit(element: Box | Component, setting: string, text: string): TextEdit {
    const members = element.$type === 'Box' ? element.members : element.settings;
    const isCost = setting.startsWith('cost ');
    const existing = members.find(m => (isCost ? isCostSetting(m) : isEtpSetting(m)));
    if (existing?.$cstNode) return { range: existing.$cstNode.range, newText: setting };
    const last = [...members].reverse().find(m => m.$cstNode)?.$cstNode;
    const node = element.$cstNode!;
    if (!last) {
        // a box `{ }` or a component with no settings: after `{` or after the name
        const at = element.$type === 'Box' ? positionAfter(text, node.offset, '{', node) : node.range.end;
        return { range: { start: at, end: at }, newText: ` ${setting}` };
    }
    const at = last.range.end;
    return { range: { start: at, end: at }, newText: `${separatorBefore(members, last, text)}${setting}` };
}

/** What separates the last two settings (two spaces on one line, or a new line with the same indentation). */
function separatorBefore(
    members: ReadonlyArray<{ $cstNode?: { offset: number; end: number } }>,
    last: { offset: number },
    text: string,
): string {
    const nodes = members.map(m => m.$cstNode).filter(n => n !== undefined);
    const index = nodes.findIndex(n => n.offset === last.offset);
    const previous = index > 0 ? nodes[index - 1] : undefined;
    if (previous) {
        const between = text.slice(previous.end, last.offset);
        if (/^\s+$/.test(between))
            return between.includes('\n') ? `${eol(text)}${indentation(text, last.offset)}` : between;
    }
    const lineStart = text.lastIndexOf('\n', last.offset - 1) + 1;
    return /^\s*$/.test(text.slice(lineStart, last.offset)) ? `${eol(text)}${indentation(text, last.offset)}` : '  ';
}

/** The model's line ending: an inserted line keeps a CRLF file CRLF. */
const eol = (text: string) => (text.includes('\r\n') ? '\r\n' : '\n');

function indentation(text: string, offset: number): string {
    const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
    return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

function positionAfter(text: string, from: number, char: string, node: { range: { end: Position } }): Position {
    const index = text.indexOf(char, from);
    if (index < 0) return node.range.end;
    const before = text.slice(0, index + 1);
    const line = before.split('\n').length - 1;
    return { line, character: index + 1 - (before.lastIndexOf('\n') + 1) };
}

/** `text` with `edits` applied (non-overlapping, any order): what the CLI writes and checks. */
export function applyTextEdits(text: string, edits: readonly TextEdit[]): string {
    const starts = lineStarts(text);
    const offsetOf = (p: Position) => Math.min(text.length, (starts[p.line] ?? text.length) + p.character);
    const sorted = edits
        .map(e => ({ start: offsetOf(e.range.start), end: offsetOf(e.range.end), newText: e.newText }))
        .sort((a, b) => b.start - a.start);
    let out = text;
    for (const e of sorted) out = out.slice(0, e.start) + e.newText + out.slice(e.end);
    return out;
}

function lineStarts(text: string): number[] {
    const starts = [0];
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    return starts;
}
