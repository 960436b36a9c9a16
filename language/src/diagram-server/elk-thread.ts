/**
 * ELK in a worker thread of the language server (elk-worker.ts). The layout of a 500-box chain takes most of
 * a second: on the server's own thread it would hold up every hover and completion meanwhile. A worker that
 * dies (out of memory, a crash in ELK) fails the layouts it had and is started again for the next one.
 */
import { Worker } from 'node:worker_threads';
import * as elkApi from 'elkjs/lib/elk-api.js';
import type { ELK, ELKConstructorArguments } from 'elkjs/lib/elk-api.js';
import type ElkConstructor from 'elkjs/lib/elk.bundled.js';
import type { ElkFactory } from 'sprotty-elk/lib/elk-layout.js';

/** elkjs's API without its in-thread copy of ELK (elk.bundled.js carries one): CommonJS, its class as `default`. */
const ElkApi = (elkApi as unknown as { default: typeof ElkConstructor.default }).default;

interface ElkMessage {
    id: number;
    cmd?: string;
}

/** The Web Worker face elkjs's API expects, over a node worker thread. */
export class ElkThreadPort {
    onmessage?: (event: { data: unknown }) => void;
    private worker: Worker | undefined;
    private readonly pending = new Set<number>();
    /** ELK's first message registers its algorithms; a restarted worker needs it again. */
    private registration: ElkMessage | undefined;

    constructor(private readonly workerFile: string) {}

    postMessage(message: ElkMessage): void {
        // the registration is sent again to a restarted thread; elkjs cannot take its failure (console.err)
        if (message.cmd === 'register') this.registration = message;
        else this.pending.add(message.id);
        this.running().postMessage(message);
    }

    terminate(): void {
        void this.worker?.terminate();
        this.worker = undefined;
    }

    private running(): Worker {
        if (this.worker) return this.worker;
        const worker = new Worker(this.workerFile);
        worker.unref(); // the layouts in flight must not keep a finished server alive
        worker.on('message', (data: ElkMessage) => {
            this.pending.delete(data.id);
            this.onmessage?.({ data });
        });
        worker.on('error', error => this.failAll(worker, error.message));
        worker.on('exit', code => this.failAll(worker, `it exited with code ${code}`));
        this.worker = worker;
        if (this.registration) worker.postMessage({ ...this.registration, id: -1 });
        return worker;
    }

    private failAll(worker: Worker, reason: string): void {
        if (this.worker !== worker) return;
        this.worker = undefined;
        const failed = [...this.pending];
        this.pending.clear();
        for (const id of failed)
            this.onmessage?.({ data: { id, error: new Error(`the layout thread stopped: ${reason}`) } });
    }
}

/** One ELK for the server, in a worker thread started from `workerFile` (dist/elk-worker.cjs). */
export function elkThreadFactory(workerFile: string): ElkFactory {
    const workerFactory = (() => new ElkThreadPort(workerFile)) as unknown as ELKConstructorArguments['workerFactory'];
    let elk: ELK | undefined;
    return () => (elk ??= new ElkApi({ algorithms: ['layered'], workerFactory }));
}
