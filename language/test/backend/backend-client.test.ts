/** The backend client against real processes: a backend that dies fails the request with its stderr instead of hanging. */
import { describe, expect, test } from 'vitest';
import { BackendClient, BackendUnavailableError } from '../../src/backend/backend-client.js';

describe('BackendClient', () => {
    test('a backend that exits during a request rejects it with a clear error', async () => {
        // `sh -m chainlab.rpc` is refused by sh at once: a stand-in for a backend that crashes on start-up
        const client = BackendClient.start('/bin/sh');
        const error = await client.request('ptts/analyze', {}).then(() => undefined, (e: unknown) => e);
        expect(error).toBeInstanceOf(BackendUnavailableError);
        expect(String((error as Error).message)).toMatch(/the backend (exited|is not running)/);
        expect(String((error as Error).message)).toContain('chainlab.rpc'); // its stderr, quoted
        await client.stop();
    }, 20_000);
});
