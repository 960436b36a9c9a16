/** Loads .chain files into one workspace of the language services and validates them. */
import { resolve } from 'node:path';
import { DocumentState, URI, type DocumentBuilder, type Disposable, type LangiumDocument } from 'langium';
import { NodeFileSystem } from 'langium/node';
import type { Diagnostic } from 'vscode-languageserver';
import type { ChainServices } from '../dsl/chain-module.js';
import { createBatchChainServices } from '../dsl/chain-batch-module.js';
import type { Model } from '../generated/ast.js';
import { escapeControls } from './escape-controls.js';
import { readModelFile } from './model-files.js';
import { UsageError } from './usage-error.js';
import { COLLECT_ABOVE_CHARACTERS, collectGarbage } from './heap.js';

let cached: ChainServices | undefined;

export function chainServices(): ChainServices {
    return (cached ??= createBatchChainServices(NodeFileSystem).Chain);
}

export interface LoadedFile {
    readonly path: string;
    readonly document: LangiumDocument<Model>;
    readonly diagnostics: Diagnostic[];
}

/** The documents the last loadFiles put into the workspace: the next call starts without them. */
const loadedUris: URI[] = [];

/**
 * Loads and validates `paths` as one workspace, and only them: a file named twice (`check a.chain ./a.chain`) is
 * loaded once, and the documents of an earlier call in the same process are removed first (its result depends on
 * its paths only).
 */
export async function loadFiles(paths: readonly string[], services = chainServices()): Promise<LoadedFile[]> {
    const { LangiumDocuments, IndexManager } = services.shared.workspace;
    for (const uri of loadedUris.splice(0)) {
        LangiumDocuments.deleteDocument(uri);
        IndexManager.remove(uri);
    }
    const byUri = new Map<string, { path: string; document: LangiumDocument<Model> }>();
    for (const path of paths) {
        if (!path.endsWith('.chain')) throw new UsageError(`${path}: not a .chain file`);
        const uri = URI.file(resolve(path));
        if (byUri.has(uri.toString())) continue;
        const text = readModelFile(path);
        const document = services.shared.workspace.LangiumDocumentFactory.fromString<Model>(text, uri);
        LangiumDocuments.addDocument(document);
        loadedUris.push(uri);
        byUri.set(uri.toString(), { path, document });
    }
    const documents = [...byUri.values()];
    const builder = services.shared.workspace.DocumentBuilder;
    const characters = documents.reduce((sum, { document }) => sum + document.textDocument.getText().length, 0);
    const collecting = characters > COLLECT_ABOVE_CHARACTERS ? collectAfterPhases(builder) : [];
    try {
        await builder.build(
            documents.map(d => d.document),
            { validation: true },
        );
    } finally {
        for (const listener of collecting) listener.dispose();
    }
    return documents.map(({ path, document }) => ({ path, document, diagnostics: document.diagnostics ?? [] }));
}

/** After the parse (done when a document is made), and after the phases that leave the most garbage. */
function collectAfterPhases(builder: DocumentBuilder): Disposable[] {
    collectGarbage();
    return [DocumentState.ComputedScopes, DocumentState.Linked, DocumentState.Validated].map(phase =>
        builder.onBuildPhase(phase, () => collectGarbage()),
    );
}

const SEVERITY = ['', 'error', 'warning', 'info', 'hint'];

/** gcc-style `file:line:col: error: message [code]`. */
export function formatDiagnostic(path: string, diagnostic: Diagnostic): string {
    const { line, character } = diagnostic.range.start;
    const code = (diagnostic.data as { code?: string } | undefined)?.code ?? diagnostic.code;
    return escapeControls(
        `${path}:${line + 1}:${character + 1}: ${SEVERITY[diagnostic.severity ?? 1]}: ${diagnostic.message}${code ? ` [${code}]` : ''}`,
        true,
    );
}

export const isError = (d: Diagnostic) => (d.severity ?? 1) === 1;
