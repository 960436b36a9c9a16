/**
 * The lean CST against Langium's own builder on the samples: every property's node (what diagnostics, rename and
 * hover find through `findNodeForProperty`) and every reference's node cover the same text at the same range, and
 * the node of every AST element and every reference is in the tree, reached from its root.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
    AstUtils,
    GrammarUtils,
    createLangiumParser,
    isReference,
    type AstNode,
    type CstNode,
    type LangiumParser,
} from 'langium';
import { services } from '../test-utils.js';

const samples = join(__dirname, '../../../samples');
const files = [
    join(samples, 'xray.chain'),
    ...readdirSync(join(samples, 'chains')).map(f => join(samples, 'chains', f)),
    ...readdirSync(join(samples, 'ptts'))
        .filter(f => f.endsWith('.chain'))
        .map(f => join(samples, 'ptts', f)),
];

/** Langium's parser with its own CST builder (the services' lexer: tokens as chevrotain's, compared apart). */
const langiumParser: LangiumParser = createLangiumParser(services.Chain);

interface Seen {
    path: string;
    text: string;
    range: string;
}

function rangeText({ range: { start, end } }: CstNode): string {
    return `${start.line}:${start.character}-${end.line}:${end.character}`;
}

function nodesOf(root: AstNode): Seen[] {
    const seen: Seen[] = [];
    const where = (node: CstNode | undefined) =>
        node ? { text: node.text, range: rangeText(node) } : { text: '-', range: '-' };
    for (const node of AstUtils.streamAst(root)) {
        const path = services.Chain.workspace.AstNodeLocator.getAstNodePath(node);
        for (const [property, value] of Object.entries(node)) {
            if (property.startsWith('$') || value === undefined) continue;
            for (const [index, item] of (Array.isArray(value) ? value : [value]).entries()) {
                if (isReference(item)) seen.push({ path: `${path}/${property}@${index} ref`, ...where(item.$refNode) });
                const found = GrammarUtils.findNodeForProperty(node.$cstNode, property, index);
                seen.push({ path: `${path}/${property}@${index}`, ...where(found) });
            }
        }
    }
    return seen;
}

/** Under the CST node of `element` (or the tree's root), reached from the root through `content`. */
function inTree(node: CstNode, element: AstNode): boolean {
    let child = node;
    for (let parent = node.container; parent; child = parent, parent = parent.container)
        if (!parent.content.includes(child)) return false;
    return child === element.$cstNode?.root && AstUtils.findRootNode(element).$cstNode === child;
}

describe('lean CST against Langium’s builder', () => {
    test.each(files.map(f => [f.slice(samples.length + 1), f]))('%s', (_name, file) => {
        const text = readFileSync(file, 'utf-8');
        const lean = services.Chain.parser.LangiumParser.parse(text);
        const langium = langiumParser.parse(text);
        expect(lean.parserErrors).toEqual([]);
        const leanNodes = nodesOf(lean.value);
        expect(leanNodes.length).toBeGreaterThan(20);
        expect(leanNodes).toEqual(nodesOf(langium.value));
        for (const node of AstUtils.streamAst(lean.value)) {
            expect(node.$cstNode!.astNode).toBe(node);
            expect(inTree(node.$cstNode!, node), node.$type).toBe(true);
            for (const reference of AstUtils.streamReferences(node)) {
                const refNode = reference.reference.$refNode!;
                expect(inTree(refNode, node), reference.reference.$refText).toBe(true);
                expect(refNode.astNode).toBe(node);
            }
        }
    });
});
