/** Runs one piece of backend work from the CLI: starts the backend, reports its errors readably, always stops it. */
import type { ParamsOf, ResultOf, RunReport } from '@chainlab/contract';
import {
    BackendClient,
    BackendError,
    BackendModelError,
    BackendUnavailableError,
} from '../backend-rpc/backend-client.js';
import type { Output } from './commands.js';
import { progressBar } from './progress-bar.js';
import { errorLine } from './error-line.js';

export async function withBackend(output: Output, work: (backend: BackendClient) => Promise<number>): Promise<number> {
    let backend: BackendClient | undefined;
    try {
        backend = BackendClient.start();
        return await work(backend);
    } catch (error) {
        if (error instanceof BackendModelError) {
            output.err(errorLine(error.message));
            // The message already lists what to do instead (e.g. nearby periods); the proposals stay in --json output.
            return 1;
        }
        if (error instanceof BackendUnavailableError) {
            output.err(`chainlab: error: ${error.message}`);
            return 1;
        }
        if (error instanceof BackendError) {
            output.err(`chainlab: internal error: ${error.message}`);
            return 70;
        }
        throw error;
    } finally {
        await backend?.stop();
    }
}

/**
 * While a run is in flight, Ctrl-C asks the backend to stop it: the chain writes what it measured and the
 * reply still comes, marked stopped. A second Ctrl-C gives up at once. SIGTERM and SIGHUP (a closed terminal)
 * are handled the same way. Returns the function that uninstalls it.
 */
export function interruptOnCtrlC(backend: BackendClient, output: Output): () => void {
    let pressed = 0;
    const handler = (signal: NodeJS.Signals) => {
        pressed++;
        if (pressed > 1) process.exit(signal === 'SIGINT' ? 130 : 128 + (signal === 'SIGHUP' ? 1 : 15));
        const what = signal === 'SIGINT' ? 'Ctrl-C again to abandon it' : `${signal} again to abandon it`;
        output.err(`\nchainlab: stopping the run (${what}); keeping what was measured ...`);
        backend.interrupt();
    };
    const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
    for (const s of signals) process.on(s, handler);
    return () => {
        for (const s of signals) process.off(s, handler);
    };
}

/**
 * A long backend run from the CLI: a progress line on a terminal, Ctrl-C stops the run but keeps what was
 * measured, the summary (or the JSON reply) printed. Returns the reply; the caller maps its status to an exit code.
 */
export async function measuredRun<M extends 'run/local' | 'deploy/run' | 'experiment/heuristics'>(
    backend: BackendClient,
    output: Output,
    json: boolean | undefined,
    method: M,
    params: ParamsOf<M>,
): Promise<ResultOf<M>> {
    const bar = progressBar(json);
    const stopOnCtrlC = interruptOnCtrlC(backend, output);
    try {
        const reply = await backend.request(method, params, bar.onProgress ? { onProgress: bar.onProgress } : {});
        bar.end();
        output.out(json ? JSON.stringify(reply, null, 2) : reply.summary);
        return reply;
    } finally {
        bar.end();
        stopOnCtrlC();
    }
}

/** The exit code of a run (`run`, `deploy`): 130 when Ctrl-C stopped it (what it measured is kept), 1 when a
 * scenario did not end ok. */
export function runExitCode(reply: Pick<RunReport, 'status' | 'out_dir'>, output: Output): number {
    if (reply.status === 'stopped') {
        output.err(`chainlab: interrupted: what was measured is kept in ${reply.out_dir}`);
        return 130;
    }
    return reply.status === 'ok' ? 0 : 1;
}
