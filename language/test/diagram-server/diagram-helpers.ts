/** Builds diagrams the way the language server does (real services, real files, ELK in Node). */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { URI, type LangiumDocument } from 'langium';
import { NodeFileSystem } from 'langium/node';
import type { SModelElement } from 'sprotty-protocol';
import { createChainDiagramServices } from '../../src/diagram-server/chain-diagram-services.js';
import { DIAGRAM_TYPE, type ChainlabGraph } from '../../src/diagram-server/diagram-elements.js';
import type { PlanSource } from '../../src/diagram-server/plan-view.js';
import { backendPlanSource } from '../../src/server/plan-source.js';
import { SharedBackend } from '../../src/server/shared-backend.js';
import type { ChainlabDiagramOptions } from '../../src/diagram-server/view-context.js';
import type { Model } from '../../src/generated/ast.js';

export const repo = join(__dirname, '..', '..', '..');

export function sampleFiles(dir = join(repo, 'samples')): string[] {
    return readdirSync(dir).flatMap(name => {
        const path = join(dir, name);
        return statSync(path).isDirectory() ? sampleFiles(path) : name.endsWith('.chain') ? [path] : [];
    });
}

export function diagramServices(plans: PlanSource) {
    return createChainDiagramServices({ ...NodeFileSystem }, plans);
}

export type Services = ReturnType<typeof diagramServices>;

/**
 * Diagram services that plan with the Python backend, for the tests of one file: call it at the file's top level. The
 * backend starts with the first plan and stops after the file's tests.
 */
export function servicesWithBackend(): { services: Services; plans: PlanSource } {
    const backend = new SharedBackend();
    const plans = backendPlanSource(backend);
    afterAll(() => backend.stop());
    return { services: diagramServices(plans), plans };
}

export async function load(services: Services, path: string, text?: string): Promise<LangiumDocument<Model>> {
    const documents = services.shared.workspace.LangiumDocuments;
    const uri = URI.file(path);
    if (documents.hasDocument(uri)) documents.deleteDocument(uri);
    const document =
        text === undefined
            ? await documents.getOrCreateDocument(uri)
            : services.shared.workspace.LangiumDocumentFactory.fromString<Model>(text, uri);
    if (text !== undefined) documents.addDocument(document);
    await services.shared.workspace.DocumentBuilder.build([document], { validation: true });
    return document as LangiumDocument<Model>;
}

export async function diagram(
    services: Services,
    document: LangiumDocument,
    options: ChainlabDiagramOptions,
    layout = true,
): Promise<ChainlabGraph> {
    const opts = {
        ...options,
        sourceUri: document.uri.toString(),
        diagramType: DIAGRAM_TYPE,
        needsClientLayout: false,
        needsServerLayout: true,
    };
    const root = await services.Chain.diagram.DiagramGenerator.generate({
        options: opts,
        state: { options: opts, currentRoot: { type: 'NONE', id: 'ROOT' }, revision: 0 },
    });
    return (layout ? await services.Chain.diagram.ModelLayoutEngine!.layout(root) : root) as ChainlabGraph;
}

export function all(root: SModelElement): SModelElement[] {
    return [root, ...(root.children ?? []).flatMap(all)];
}

type Box = { x: number; y: number; width: number; height: number };

/** Absolute bounds of the top-level nodes (what must not overlap). */
export function topNodeBounds(graph: ChainlabGraph): Array<Box & { id: string }> {
    return (graph.children ?? [])
        .filter(c => c.type.startsWith('node'))
        .map(c => {
            const n = c as SModelElement & {
                position?: { x: number; y: number };
                size?: { width: number; height: number };
            };
            return {
                id: n.id,
                x: n.position?.x ?? NaN,
                y: n.position?.y ?? NaN,
                width: n.size?.width ?? NaN,
                height: n.size?.height ?? NaN,
            };
        });
}

export function overlaps(a: Box, b: Box): boolean {
    return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}
