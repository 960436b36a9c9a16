/** elkjs's worker script (no types of its own): outside a Web Worker it exports its dispatcher as `Worker`. */
declare module 'elkjs/lib/elk-worker.min.js' {
    interface ElkDispatcher {
        postMessage(message: unknown): void;
        onmessage?: (event: { data: { id: number; error?: unknown } }) => void;
    }
    const elkWorker: { Worker: new () => ElkDispatcher };
    export default elkWorker;
}
