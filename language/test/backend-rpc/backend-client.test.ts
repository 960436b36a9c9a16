/**
 * The backend client against real processes: a backend that dies fails the request with its stderr instead
 * of hanging; one that does not answer in time is stopped and the request fails saying so; one that speaks
 * another contract version is refused, whichever side notices; one whose reply is not JSON (a bare NaN) fails the
 * request at once instead of leaving it waiting.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { CONTRACT_VERSION } from '@chainlab/contract';
import {
    BackendClient,
    BackendError,
    BackendUnavailableError,
    ContractMismatchError,
} from '../../src/backend-rpc/backend-client.js';
import { backendSpeaking, nanBackend, preContractBackend, venvPython } from './contract-backends.js';

describe('BackendClient', () => {
    test('a backend that exits during a request rejects it with a clear error', async () => {
        // `sh -m chainlab.rpc` is refused by sh at once: a stand-in for a backend that crashes on start-up
        const client = BackendClient.start('/bin/sh');
        const error = await client.request('plan/synth', { boxes: 3 }).then(
            () => undefined,
            (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(BackendUnavailableError);
        expect(String((error as Error).message)).toMatch(/the backend (exited|is not running)/);
        expect(String((error as Error).message)).toContain('chainlab.rpc'); // its stderr, quoted
        await client.stop();
    }, 20_000);

    test('a request past its time-out fails at once and the silent backend is stopped', async () => {
        const dir = mkdtempSync(join(tmpdir(), 'chainlab-silent-'));
        const silent = join(dir, 'silent-backend');
        writeFileSync(silent, '#!/bin/sh\nexec sleep 60\n'); // reads nothing, answers nothing
        chmodSync(silent, 0o755);
        const client = BackendClient.start(silent);
        try {
            const started = Date.now();
            const error = await client.request('plan/synth', { boxes: 3 }, { timeoutMs: 500 }).then(
                () => undefined,
                (e: unknown) => e,
            );
            expect(error).toBeInstanceOf(BackendUnavailableError);
            expect(String((error as Error).message)).toMatch(
                /plan\/synth took longer than 0.5 s; the backend was stopped/,
            );
            expect(Date.now() - started).toBeLessThan(5_000);
            expect(client.running).toBe(false);
        } finally {
            await client.stop();
            rmSync(dir, { recursive: true, force: true });
        }
    }, 20_000);

    test('a backend of the same contract answers', async () => {
        const client = BackendClient.start(venvPython);
        try {
            const version = await client.request('backend/version', { contract_version: CONTRACT_VERSION });
            expect(version.contract_version).toBe(CONTRACT_VERSION);
        } finally {
            await client.stop();
        }
    }, 30_000);

    test('a backend of another contract version refuses this client, and the client says what to do', async () => {
        const client = BackendClient.start(backendSpeaking('0.9.0'));
        try {
            const error = await client.request('plan/synth', { boxes: 3 }).then(
                () => undefined,
                (e: unknown) => e,
            );
            expect(error).toBeInstanceOf(ContractMismatchError);
            expect(error).toBeInstanceOf(BackendUnavailableError); // the CLI and the language server report it like a missing backend
            expect((error as Error).message).toBe(
                `chainlab backend speaks contract 0.9.0, this client ${CONTRACT_VERSION}: install matching versions of the backend (chainlab-backend) and of the CLI or extension`,
            );
        } finally {
            await client.stop();
        }
    }, 30_000);

    test('a backend that predates the contract is refused by the client before any work is sent', async () => {
        const log = join(mkdtempSync(join(tmpdir(), 'chainlab-old-')), 'methods.log');
        const client = BackendClient.start(preContractBackend(log));
        try {
            const error = await client.request('plan/synth', { boxes: 3 }).then(
                () => undefined,
                (e: unknown) => e,
            );
            expect(error).toBeInstanceOf(ContractMismatchError);
            expect((error as Error).message).toBe(
                `chainlab backend speaks contract none (it predates the contract), this client ${CONTRACT_VERSION}: install matching versions of the backend (chainlab-backend) and of the CLI or extension`,
            );
        } finally {
            await client.stop();
        }
        expect(readFileSync(log, 'utf-8').split('\n').filter(Boolean)).toEqual(['backend/version', 'exit']);
    }, 30_000);

    test('a reply that is not JSON fails the request at once and the backend is stopped', async () => {
        const client = BackendClient.start(nanBackend(CONTRACT_VERSION));
        try {
            const started = Date.now();
            const error = await client.request('plan/synth', { boxes: 3 }).then(
                () => undefined,
                (e: unknown) => e,
            );
            expect(error).toBeInstanceOf(BackendError);
            expect((error as Error).message).toMatch(
                /^the backend sent a message that is not JSON-RPC during plan\/synth \(.*NaN.*\); it was stopped$/,
            );
            expect(Date.now() - started).toBeLessThan(5_000);
            expect(client.running).toBe(false);
        } finally {
            await client.stop();
        }
    }, 20_000);
});
