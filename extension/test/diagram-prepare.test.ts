/**
 * A new panel's likely first model request: the latest request's size and display choices with the panel's own
 * document, view and element; nothing before any panel has told its size.
 */
import { describe, expect, test } from 'vitest';
import { preparation, rememberRequest } from '../src/diagram-prepare';

const request = {
    sourceUri: 'file:///work/a.chain',
    diagramType: 'chainlab-plan',
    needsClientLayout: false,
    needsServerLayout: true,
    view: 'plan',
    element: 'Main',
    showPorts: false,
    showCosts: true,
    heuristic: 'heuristic1',
    colourBy: 'slack',
    viewport: { width: 812, height: 977 },
};

describe('preparing a new panel from the latest model request', () => {
    test('what is remembered is what the layout depends on, by view, not whose request it was', () => {
        const remembered = rememberRequest(undefined, request)!;
        expect(Object.keys(remembered)).toEqual(['plan']);
        expect(remembered.plan).not.toHaveProperty('sourceUri');
        expect(remembered.plan).not.toHaveProperty('diagramType');
        expect(remembered.plan).not.toHaveProperty('needsServerLayout');
        expect(remembered.plan).toMatchObject({ showPorts: false, viewport: { width: 812, height: 977 } });
        const both = rememberRequest(remembered, { ...request, view: 'chain', viewport: { width: 812, height: 941 } })!;
        expect(both.plan?.viewport).toEqual({ width: 812, height: 977 });
        expect(both.chain?.viewport).toEqual({ width: 812, height: 941 });
        expect(rememberRequest(remembered, { ...request, viewport: undefined })).toBe(remembered);
        expect(rememberRequest(remembered, undefined)).toBe(remembered);
    });

    test("the panel's own document and element, with its view's latest size and choices", () => {
        const last = rememberRequest(rememberRequest(undefined, request), {
            ...request,
            view: 'chain',
            viewport: { width: 812, height: 941 },
        });
        const params = preparation(last, {
            uri: 'file:///work/b.chain',
            diagramType: 'chainlab-chain',
            view: 'chain',
        })!;
        expect(params.sourceUri).toBe('file:///work/b.chain');
        expect(params.options).toMatchObject({
            view: 'chain',
            element: '',
            diagramType: 'chainlab-chain',
            showPorts: false,
            heuristic: 'heuristic1',
            viewport: { width: 812, height: 941 },
        });
    });

    test('no preparation before a panel of the view has told its size', () => {
        expect(preparation(undefined, { uri: 'file:///work/b.chain', diagramType: 'chainlab-chain' })).toBeUndefined();
        const planOnly = rememberRequest(undefined, request);
        expect(
            preparation(planOnly, { uri: 'file:///work/b.chain', diagramType: 'chainlab-lanes', view: 'lanes' }),
        ).toBeUndefined();
    });
});
