/**
 * The lean descriptions of named elements give what Langium's own give: the same name, type, document, path and
 * segments (computed when asked), for every element the scopes of a sample model hold.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { AstUtils, DefaultAstNodeDescriptionProvider } from 'langium';
import { LeanAstNodeDescriptionProvider } from '../../src/dsl/lean-descriptions.js';
import { parse, services } from '../test-utils.js';

const repo = join(__dirname, '..', '..', '..');

describe('lean descriptions', () => {
    test('equal to Langium’s for every named element of the X-ray model', async () => {
        const document = await parse(readFileSync(join(repo, 'samples', 'xray.chain'), 'utf-8'));
        const chain = services.Chain;
        expect(chain.workspace.AstNodeDescriptionProvider).toBeInstanceOf(LeanAstNodeDescriptionProvider);
        const langiums = new DefaultAstNodeDescriptionProvider(chain);
        const named = AstUtils.streamAllContents(document.parseResult.value)
            .filter(node => typeof (node as { name?: unknown }).name === 'string')
            .toArray();
        expect(named.length).toBeGreaterThan(50);
        for (const node of named) {
            const lean = chain.workspace.AstNodeDescriptionProvider.createDescription(node, undefined, document);
            const theirs = langiums.createDescription(node, undefined, document);
            const { node: same, name, type, documentUri, path, nameSegment, selectionSegment } = lean;
            expect({ node: same, name, type, documentUri, path, nameSegment, selectionSegment }).toEqual({
                node: theirs.node,
                name: theirs.name,
                type: theirs.type,
                documentUri: theirs.documentUri,
                path: theirs.path,
                nameSegment: theirs.nameSegment,
                selectionSegment: theirs.selectionSegment,
            });
        }
    });
});
