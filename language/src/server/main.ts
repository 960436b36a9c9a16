/**
 * The .chain language server. Bundled by esbuild.mjs to dist/server.cjs and
 * started by the editor with `--stdio` (or `--node-ipc` / `--socket=N`, as
 * vscode-languageserver reads them from the command line).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startLanguageServer } from 'langium/lsp';
import type { ElkFactory } from 'sprotty-elk/lib/elk-layout.js';
import { NodeFileSystem } from 'langium/node';
import { addDiagramHandler, addDiagramSelectionHandler, addTextSelectionHandler } from 'langium-sprotty';
import { addChainlabPopups } from '../diagram-server/diagram-popups.js';
import { SharedBackend } from './shared-backend.js';
import type { ChainlabDiagramServerManager } from '../diagram-server/chainlab-diagram-server-manager.js';
import { createChainDiagramServices } from '../diagram-server/chain-diagram-services.js';
import { backendPlanSource } from './plan-source.js';
import { rememberAnalysis } from '../diagram-server/analysis-results.js';
import { rememberTasks } from '../diagram-server/measured-tasks.js';
import { registerAnalysisRequests } from './analysis-requests.js';
import { registerDiagramEditRequests } from './diagram-edit-requests.js';
import { registerDiagramPrepare } from './diagram-prepare.js';
import { registerElementRequests } from './element-requests.js';
import { registerImportRequests } from './import-requests.js';
import { registerMeasurementRequests } from './measurement-requests.js';
import { registerOffsetRequests } from './offset-edits.js';
import { registerTimingsRequests } from './timings-requests.js';
import { backendCostSource } from './nearby-periods.js';
import { RunResults, rememberRun } from './run-results.js';
import { SweepResults, rememberSweep } from './sweep-results.js';
import { createServerModule } from './server-module.js';
import { ServerStartModule } from './start-up.js';
import { createServerConnection } from './server-connection.js';
import { ChainlabLayoutEngine } from '../diagram-server/chainlab-layout.js';
import { elkThreadFactory } from '../diagram-server/elk-thread.js';
import { layoutStoreFromEnv } from '../diagram-server/layout-store.js';

const connection = createServerConnection();

// A language server must outlive any bad input: log what escaped a handler instead of exiting.
let reporting = false;
function report(reason: unknown): void {
    if (reporting) return; // the connection itself may be what fails: never loop
    reporting = true;
    try {
        connection.console.error(
            `chain language server: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`,
        );
    } catch {
        // nothing left to report to
    } finally {
        reporting = false;
    }
}
process.on('uncaughtException', report);
process.on('unhandledRejection', report);

const backend = new SharedBackend();
const runs = new RunResults();
const sweeps = new SweepResults();
const elkWorkerFile = join(__dirname, 'elk-worker.cjs');
const layout = new ChainlabLayoutEngine(layoutThread(), layoutStoreFromEnv(elkWorkerFile));
const { shared, Chain } = createChainDiagramServices({ connection, ...NodeFileSystem }, backendPlanSource(backend), [
    createServerModule(backendCostSource(backend), runs, sweeps),
    ServerStartModule,
    { diagram: { ModelLayoutEngine: () => layout } },
]);
startLanguageServer(shared);
// ELK starts and compiles its code in its thread while the server answers the editor's first requests
shared.lsp.LanguageServer.onInitialized(() => {
    layout
        .warmUp()
        .then(() => layout.warmUpForLargeGraphs())
        .catch(report);
});
addDiagramHandler(connection, shared);
addDiagramSelectionHandler(Chain);
addTextSelectionHandler(Chain, { fitToScreen: 'none' });
addChainlabPopups(Chain);
registerAnalysisRequests(connection, shared, backend, (request, uri, params, result) => {
    const analysed = rememberAnalysis(Chain.diagram.AnalysisResults, request, uri, params, result);
    if (analysed || rememberTasks(Chain.diagram.MeasuredTasks, request, uri, params, result)) {
        void (shared.diagram.DiagramServerManager as ChainlabDiagramServerManager).refresh(uri);
    }
    rememberRun(runs, request, uri, params, result);
    rememberSweep(sweeps, request, uri, params, result);
});
registerMeasurementRequests(connection, shared, runs);
registerElementRequests(connection, shared);
registerOffsetRequests(connection, shared);
registerImportRequests(connection, backend);
registerTimingsRequests(connection, shared, backend);

// Editing from the diagram: the server turns the request into a text edit and applies it (undo works).
registerDiagramEditRequests(connection, shared, Chain);
registerDiagramPrepare(connection, shared);

/** ELK in a worker thread when the bundle's worker script lies beside this one (dist/elk-worker.cjs), else here. */
function layoutThread(): ElkFactory | undefined {
    return existsSync(elkWorkerFile) ? elkThreadFactory(elkWorkerFile) : undefined;
}
