/** Runs one piece of backend work from the CLI: starts the backend, reports its errors readably, always stops it. */
import { BackendClient, BackendModelError, BackendUnavailableError } from '../backend/backend-client.js';
import type { Output } from './commands.js';

export async function withBackend(output: Output, work: (backend: BackendClient) => Promise<number>): Promise<number> {
    let backend: BackendClient | undefined;
    try {
        backend = BackendClient.start();
        return await work(backend);
    } catch (error) {
        if (error instanceof BackendModelError) {
            output.err(/(^|: )error: /.test(error.message) ? error.message : `error: ${error.message}`);
            // The message already lists what to do instead (e.g. nearby periods); the proposals stay in --json output.
            return 1;
        }
        if (error instanceof BackendUnavailableError) {
            output.err(`chainlab: error: ${error.message}`);
            return 1;
        }
        throw error;
    } finally {
        await backend?.stop();
    }
}
