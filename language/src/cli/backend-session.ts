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
            output.err(error.message.startsWith(error.data?.loc?.file ?? '\0') || error.message.includes(': error: ') ? error.message : `error: ${error.message}`);
            for (const proposal of (error.data?.proposals ?? []) as Array<Record<string, unknown>>) {
                output.err(`  proposal: ${describeProposal(proposal)}`);
            }
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

function describeProposal(proposal: Record<string, unknown>): string {
    const periods = proposal.periods_ms ?? proposal.periods;
    const parts = [periods ? `periods ${JSON.stringify(periods)}` : JSON.stringify(proposal)];
    if (proposal.roots !== undefined) parts.push(`${proposal.roots} latency trees`);
    if (proposal.max_relative_change !== undefined) parts.push(`periods change by at most ${(Number(proposal.max_relative_change) * 100).toFixed(2)} %`);
    return parts.join(', ');
}
