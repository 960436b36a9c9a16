/**
 * The extension ships the tuned TextMate grammar (language/textmate.mjs), not Langium's raw one in which `x`,
 * `s`, `in` … are keywords everywhere (its tests: language/test/textmate).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { tunedTextMateGrammar } from '../../language/textmate.mjs';

const extension = join(dirname(fileURLToPath(import.meta.url)), '..');

test('extension/syntaxes holds the tuned grammar the manifest names', async () => {
    const manifest = JSON.parse(readFileSync(join(extension, 'package.json'), 'utf-8'));
    const path = manifest.contributes.grammars.find((g: { language: string }) => g.language === 'chain').path as string;
    const shipped = JSON.parse(readFileSync(join(extension, path), 'utf-8'));
    expect(shipped).toEqual(await tunedTextMateGrammar());
    expect(JSON.stringify(shipped)).toContain('variable.other.property.chain');
});
