/** Integers inside decimals keep every digit; integers on their own stay numbers. */
import { describe, expect, test } from 'vitest';
import { isComponent, isPeriodSetting, isPtts, type Model } from '../../src/generated/ast.js';
import { parse, validate } from '../test-utils.js';

const ptts = (period: string) => `ptts P {
    component C0  period ${period} ms  offset 0 ms  etp point 5 ms
}
platform Pc { cores 4 }
`;

const periodOf = (model: Model) => {
    const component = model.elements.find(isPtts)?.members.find(isComponent);
    const setting = component?.settings.find(isPeriodSetting);
    return setting?.period.value;
};

describe('ChainValueConverter', () => {
    test('a 20-digit integer in a decimal keeps its last digits', async () => {
        const document = await parse(ptts('12345678901234567891'));
        expect(periodOf(document.parseResult.value)).toBe('12345678901234567891');
    });

    test('a 401-digit period is refused as too long, not as "Infinity"', async () => {
        const document = await validate(ptts('1'.repeat(401)));
        const messages = (document.diagnostics ?? []).map(d => d.message).join('\n');
        expect(messages).toMatch(/longer than 2\^53 - 1 ns/);
        expect(messages).not.toMatch(/Infinity/);
    });

    test('cores stay a number', async () => {
        const document = await parse(ptts('200'));
        const platform = document.parseResult.value.elements.find(e => e.$type === 'Platform');
        expect(JSON.stringify(platform, (key, value) => (key.startsWith('$') ? undefined : value))).toMatch(
            /"cores":4\b/,
        );
    });
});
