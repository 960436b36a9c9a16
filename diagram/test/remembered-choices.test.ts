/** The choices the extension hands back are taken where they still fit, whatever an older version stored. */
import { describe, expect, test } from 'vitest';
import { rememberedChoices } from '../src/options/remembered-choices.js';

describe('rememberedChoices', () => {
    test('valid choices are taken as they are', () => {
        const choices = {
            showPorts: false,
            showCosts: true,
            heuristic: 'reduced',
            showMeasured: true,
            showCritical: false,
            colourBy: { plan: 'slack', chain: 'share' },
        };
        expect(rememberedChoices(choices)).toEqual(choices);
    });

    test('what no longer fits is left out, the rest kept', () => {
        expect(
            rememberedChoices({
                showPorts: 'yes',
                heuristic: 'fastest',
                colourBy: { plan: 'heat', chain: 'memory', gantt: 'share' },
                extra: 1,
            }),
        ).toEqual({ colourBy: { chain: 'memory' } });
        expect(rememberedChoices(undefined)).toEqual({});
        expect(rememberedChoices('share')).toEqual({});
    });
});
