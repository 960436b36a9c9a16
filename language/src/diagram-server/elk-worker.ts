/**
 * The ELK layout worker thread (bundled by esbuild.mjs to dist/elk-worker.cjs): elkjs's own dispatcher, fed
 * from the language server's thread. ELK runs here so that a large layout never holds up a hover or a
 * completion, and so that it can be started and warmed while the server answers its first requests.
 */
import { parentPort } from 'node:worker_threads';
import ElkWorkerModule from 'elkjs/lib/elk-worker.min.js';

const port = parentPort;
if (port) {
    const elk = new ElkWorkerModule.Worker();
    // ELK's errors are GWT objects that cannot cross threads: only their message does
    elk.onmessage = ({ data }) =>
        port.postMessage(data.error === undefined ? data : { id: data.id, error: new Error(errorText(data.error)) });
    port.on('message', message => elk.postMessage(message));
}

function errorText(error: unknown): string {
    if (error instanceof Error) return error.message;
    if (typeof error === 'object' && error !== null && 'message' in error) return String(error.message);
    return String(error);
}
