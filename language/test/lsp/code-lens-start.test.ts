/**
 * Issue #16: CodeLens within 2 s of opening a file after a window reload. The language server's share of
 * that, over stdio as VS Code starts it: spawn → initialize → open samples/xray.chain → first CodeLens
 * answered (bench/ide/bench-codelens.mjs; about 0.35 s on an idle 2-core machine). The best of three
 * fresh starts must stay under 2 s, so a busy machine does not fail it; every figure is printed.
 */
import { join } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { firstCodeLens } from '../../../bench/ide/bench-codelens.mjs';
import { ensureServerBundle, languageDir } from './server-bundle.js';

const samples = join(languageDir, '..', 'samples');
let bundle: string;

beforeAll(async () => {
    bundle = await ensureServerBundle();
}, 60_000);

test('language server start → first CodeLens of samples/xray.chain: best of 3 under 2 s', async () => {
    const runs: Array<{ initialized: number; codeLens: number; lenses: number }> = [];
    for (let i = 0; i < 3; i++) runs.push(await firstCodeLens(bundle, samples, join(samples, 'xray.chain')));
    console.log(
        `start → first CodeLens: ${runs.map(r => `${r.codeLens.toFixed(0)} ms (initialize answered ${r.initialized.toFixed(0)} ms)`).join(', ')}`,
    );
    for (const run of runs) expect(run.lenses).toBe(13); // 6 per chain, 5 per ptts, 1 per target of the sample
    expect(Math.min(...runs.map(r => r.codeLens))).toBeLessThan(2000);
}, 60_000);
