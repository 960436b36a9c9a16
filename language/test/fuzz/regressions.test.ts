/**
 * The crashes and invalid IRs the mutation fuzzer found, as plain tests: each
 * input once crashed a check, the hover, or produced an IR that failed the
 * schema while the model validated clean.
 */
import { describe, expect, test } from 'vitest';
import { AstUtils, GrammarAST, type LangiumDocument } from 'langium';
import type { Hover, HoverParams } from 'vscode-languageserver';
import { services, validate } from '../test-utils.js';
import { exportIr } from '../../src/ir/ir-export.js';
import { irSchemaErrors } from '../../src/ir/ir-schema.js';
import type { Model } from '../../src/generated/ast.js';
import { numberChecks } from '../../src/dsl/validation/number-checks.js';

const BASE = `platform P { cores 4 }
image F 64 x 64 of u8
box S { out o: F source period 10 ms }
box K { in i: F kernel sink }
chain C on P { s: S k: K s.o -> k.i }
`;

const BIG = '1' + '0'.repeat(400);

const errorsOf = (document: LangiumDocument) =>
    (document.diagnostics ?? []).filter(d => (d.severity ?? 1) === 1).map(d => d.message);

function crashes(document: LangiumDocument): string[] {
    return (document.diagnostics ?? []).map(d => d.message).filter(m => m.includes('An error occurred'));
}

function irErrors(document: LangiumDocument<Model>): string[] {
    const ir = exportIr(document.parseResult.value, { file: 'x.chain', readFile: () => '1\n2\n', resolvePath: p => p });
    return irSchemaErrors(ir);
}

/** Calls the hover without its own safety net (see mutation.test.ts), at the first occurrence of `word`. */
async function hoverAt(document: LangiumDocument, word: string): Promise<Hover | undefined> {
    const provider = services.Chain.lsp.HoverProvider! as unknown as {
        computeHover?: (d: LangiumDocument, p: HoverParams) => Promise<Hover | undefined>;
    };
    const params = {
        textDocument: { uri: document.uri.toString() },
        position: document.textDocument.positionAt(document.textDocument.getText().indexOf(word)),
    };
    return provider.computeHover
        ? provider.computeHover(document, params)
        : services.Chain.lsp.HoverProvider!.getHoverContent(document, params);
}

describe('fuzzer findings: half-written models do not crash the checks', () => {
    test('a connection cut off after the arrow (chain-checks: connection.to undefined)', async () => {
        const document = await validate(BASE + 'chain D on P { s: S k: K s.o -> ');
        expect(crashes(document)).toEqual([]);
    });

    test('a connection with only its target', async () => {
        const document = await validate(BASE + 'chain D on P { s: S k: K -> k.i }');
        expect(crashes(document)).toEqual([]);
    });

    test('a uniform ETP without its minimum (ptts-cost: uniformDefaultStep read etp.min.unit)', async () => {
        const document = await validate(BASE + 'ptts Q { component A period 10 ms etp uniform .. 60 ms }');
        expect(crashes(document)).toEqual([]);
    });
});

describe('fuzzer findings: what validates clean exports a schema-valid IR', () => {
    test.each([
        ['target t { local rt-cores 0, 0 }'],
        ['target t { local rt-cores 0..2, 1  be-cores 3 }'],
        ['chain D on P { s: S k: K s.o -> k.i schedule reduced threads 2 cores 1, 1, 2 }'],
    ])('a core named twice appears once in the IR: %s', async text => {
        const document = await validate(BASE + text);
        expect(errorsOf(document)).toEqual([]);
        expect(irErrors(document)).toEqual([]);
    });

    test('a core number past 2^53 does not repeat one core 4096 times', async () => {
        const document = await validate(BASE + 'target t { local rt-cores 9007199254740993 }');
        if (errorsOf(document).length === 0) expect(irErrors(document)).toEqual([]);
    });

    test.each([
        ['box T { in i: F out o: F kernel gain(2) split rows depends pointwise cost 1e300 s }'],
        ['box T { out o: F source period 1e300 s }'],
        ['ptts Q { component A period 1e300 s etp point 1 ms }'],
        ['ptts Q { component A period 10 ms etp pmf { 1e300 s: 1 } }'],
        ['ptts Q { component A period 10 ms etp point 1 ms  require latency p99 < 1e300 s }'],
        ['throttle Z { budget period 1e300 s misses 10 }'],
        ['platform Q { cores 2 cache L2 1e300 GiB }'],
    ])('a quantity too large for exact integers is an error, not Infinity in the IR: %s', async text => {
        const document = await validate(BASE + text);
        expect(errorsOf(document).length).toBeGreaterThan(0);
    });

    test('every INT property of the grammar has the too-large check', () => {
        const owners = AstUtils.streamAllContents(services.Chain.Grammar)
            .filter(GrammarAST.isAssignment)
            .filter(a => GrammarAST.isRuleCall(a.terminal) && a.terminal.rule.ref?.name === 'INT')
            .map(a => AstUtils.getContainerOfType(a, GrammarAST.isParserRule)!)
            .filter(rule => !rule.dataType && !rule.returnType) // data type rules (Percentile) hold strings
            .map(rule => rule.name)
            .toArray();
        expect(owners.length).toBeGreaterThan(0);
        expect(Object.keys(numberChecks)).toEqual(expect.arrayContaining([...new Set(owners)]));
    });

    test.each([
        [`image G ${BIG} x 2 of u8`],
        [`platform Q { cores ${BIG} }`],
        [`chain D on P { s: S k: K s.o -> k.i iterations ${BIG} }`],
        [`throttle Z { budget period 1 ms misses ${BIG} }`],
        [`box T { in i: F out o: F kernel convolution(3) split rows depends halo ${BIG} }`],
        ['throttle Z { duty-cycle threshold 1e400 MB/s }'],
    ])('a 400-digit number is an error, not Infinity in the IR: %s', async text => {
        const document = await validate(BASE + text);
        expect(errorsOf(document).length).toBeGreaterThan(0);
    });
});

describe('fuzzer findings: hover on absurd or half-written models', () => {
    test('an image with a 400-digit width (BigInt(Infinity))', async () => {
        const document = await validate(
            `image F ${BIG} x 64 of u8\nbox B { in i: F out o: F kernel gain(2) split rows depends pointwise }\n`,
        );
        await expect(hoverAt(document, 'F ')).resolves.toBeDefined();
        await expect(hoverAt(document, 'B ')).resolves.toBeDefined();
    });

    test('an instance of a split box whose image lost its width (BigInt(undefined))', async () => {
        const document = await validate(`platform P { cores 2 }
image F x 64 of u8
box S { out o: F source period 10 ms }
box G { in i: F out o: F kernel gain(2) split rows depends pointwise }
box K { in i: F kernel sink }
chain C on P { s: S g: G k: K s.o -> g.i g.o -> k.i }
`);
        await hoverAt(document, 'g: G');
    });
});

describe('fuzzer findings: hover on a chain with a connection cut off after the arrow', () => {
    test('portRefText of a missing target (seed 7, thesis-fig5-2/sketch mutants)', async () => {
        const document = await validate(BASE + 'chain D on P { s: S k: K s.o -> }');
        await expect(hoverAt(document, 'D on')).resolves.toBeDefined();
    });
});

describe('fuzzer findings: long pipelines', () => {
    test('a pipeline of 12,000 boxes does not overflow the stack in the cycle check', async () => {
        const n = 12_000;
        const steps = Array.from({ length: n }, (_, i) => `g${i}: G`).join(' ');
        const links = Array.from({ length: n - 1 }, (_, i) => `g${i}.o -> g${i + 1}.i`).join(' ');
        const document = await validate(`platform P { cores 4 }
image F 64 x 64 of u8
box S { out o: F source period 10 ms }
box G { in i: F out o: F kernel gain(2) split rows depends pointwise }
box K { in i: F kernel sink }
chain C on P { s: S ${steps} k: K s.o -> g0.i ${links} g${n - 1}.o -> k.i g${n - 1}.o -> g0.i }
`);
        expect(crashes(document)).toEqual([]);
        // The closing connection makes one cycle through all of them, reported once.
        expect(errorsOf(document).filter(m => m.startsWith('Cycle without delay'))).toHaveLength(1);
    }, 60_000);
});

describe('fuzzer findings: pmf probabilities beyond exact arithmetic (seed 99)', () => {
    test.each([['1e-999999999'], ['1e999999999'], [BIG]])(
        'pmf { 1 ms: %s } is an error, not an IR export failure',
        async p => {
            const document = await validate(
                BASE + `ptts Q { component A period 10 ms etp pmf { 1 ms: 0.9, 2 ms: ${p} } }`,
            );
            expect(errorsOf(document).length).toBeGreaterThan(0);
        },
    );
});

describe('fuzzer findings: completion where the parser recovered a different node (seed 99, sketch #411)', () => {
    test('no scope request for a property the node lacks', async () => {
        const errors: unknown[] = [];
        const original = console.error;
        console.error = (...args: unknown[]) => {
            errors.push(args);
        };
        try {
            const text = BASE.replace('box K { in i: F kernel sink }', 'box K { in i: depends kernel sink }');
            const document = await validate(text);
            for (let offset = text.indexOf('box K'); offset < text.indexOf('chain C'); offset++) {
                await services.Chain.lsp.CompletionProvider!.getCompletion(document, {
                    textDocument: { uri: document.uri.toString() },
                    position: document.textDocument.positionAt(offset),
                });
            }
        } finally {
            console.error = original;
        }
        expect(errors.map(e => String((e as unknown[])[0]))).toEqual([]);
    });
});
