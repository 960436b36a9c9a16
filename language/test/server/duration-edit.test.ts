/** A duration rewritten the way the file writes it: its unit, its spelling, its column. */
import { EmptyFileSystem, TextDocument } from 'langium';
import { parseHelper } from 'langium/test';
import { describe, expect, test } from 'vitest';
import { createChainServices } from '../../src/dsl/chain-module.js';
import { isPtts, type Model } from '../../src/generated/ast.js';
import { componentOffset, pttsComponents } from '../../src/dsl/model-util.js';
import { durationEdit, durationText } from '../../src/server/duration-edit.js';

const { Chain } = createChainServices(EmptyFileSystem);
const parse = parseHelper<Model>(Chain);

describe('duration text', () => {
    test("in the file's unit where it takes at most 3 decimals, else in the unit that reads best", () => {
        expect(durationText(42_000_000, 'ms')).toBe('42 ms');
        expect(durationText(1_500_000, 'us')).toBe('1500 us');
        expect(durationText(500_000, 'ms')).toBe('0.5 ms');
        expect(durationText(1_500, 'ms')).toBe('1.5 us');
        expect(durationText(0, 's')).toBe('0 s');
        expect(durationText(16_650_000, undefined)).toBe('16.65 ms');
    });
});

describe('duration edit', () => {
    const offsetOf = async (text: string, name: string) => {
        const document = await parse(text);
        const ptts = document.parseResult.value.elements.find(isPtts)!;
        return { document, offset: componentOffset(pttsComponents(ptts).find(c => c.name === name)!)! };
    };
    const apply = async (line: string, ns: number) => {
        const { document, offset } = await offsetOf(`ptts P {\n${line}\n}`, 'C');
        const edit = durationEdit(document, offset, ns);
        return edit && TextDocument.applyEdits(document.textDocument, [edit]).split('\n')[1];
    };

    test('none where the value reads the same already', async () => {
        expect(await apply('    component C period 58 ms  offset  8 ms  etp point 5 ms', 8_000_000)).toBeUndefined();
    });

    test('columns: the end column stays (a shorter value is padded on its left, a longer one takes the spaces)', async () => {
        const line = '    component C  period 58 ms  offset  8 ms  etp point 5 ms';
        expect(await apply(line, 42_000_000)).toBe('    component C  period 58 ms  offset 42 ms  etp point 5 ms');
        expect(await apply(line, 142_000_000)).toBe('    component C  period 58 ms  offset 142 ms  etp point 5 ms');
        expect(await apply('    component C  period 58 ms  offset 30 ms  etp point 5 ms', 5_000_000)).toBe(
            '    component C  period 58 ms  offset  5 ms  etp point 5 ms',
        );
    });

    test('single spaces stay single; no space between number and unit stays none', async () => {
        expect(await apply('    component C period 58 ms offset 30 ms etp point 5 ms', 5_000_000)).toBe(
            '    component C period 58 ms offset 5 ms etp point 5 ms',
        );
        expect(await apply('    component C  period 58ms  offset 30ms  etp point 5 ms', 7_000_000)).toBe(
            '    component C  period 58ms  offset  7ms  etp point 5 ms',
        );
    });
});
