import { describe, expect, test } from 'vitest';
import { validate } from './test-utils.js';

describe('language smoke', () => {
    test('the one-line sketch of every feature parses and validates clean', async () => {
        const document = await validate(`
platform LabPC { cores 4  cache L3 8 MiB shared  smt off }
image Frame 1024 x 1024 of u16
box Detector { out img: Frame  source period 66.6 ms }
box Gain     { in i: Frame  out o: Frame  kernel gain(1.5)  split rows  depends pointwise  cost 0.4 ms }
box Display  { in i: Frame  kernel sink  split none }
chain XRay on LabPC {
    d: Detector  g: Gain  out: Display
    d.img -> g.i   g.o -> out.i
    schedule reduced threads 4 cores 0..3   memory reuse
}
`);
        expect(document.parseResult.lexerErrors).toEqual([]);
        expect(document.parseResult.parserErrors).toEqual([]);
        expect(document.diagnostics?.map(d => d.message)).toEqual([]);
    });
});
