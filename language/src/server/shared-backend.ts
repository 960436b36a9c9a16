/**
 * One backend process per language server, started on first use and started again after it died, shared
 * by the analysis requests and the plan diagrams.
 */
import { BackendClient } from '../backend-rpc/backend-client.js';

export class SharedBackend {
    private backend?: BackendClient;

    client(): BackendClient {
        if (!this.backend || !this.backend.running) this.backend = BackendClient.start();
        return this.backend;
    }

    get running(): boolean {
        return !!this.backend?.running;
    }

    async stop(): Promise<void> {
        await this.backend?.stop();
    }
}
