/**
 * Runs the real chainlab CLI as a child process. Asynchronously: a test worker blocked in a synchronous
 * spawn for a minute (a busy machine) misses vitest's RPC deadline ("Timeout calling onTaskUpdate").
 */
import { afterAll } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const repo = join(__dirname, '..', '..');
export const cli = join(repo, 'language', 'bin', 'chainlab.js');

export interface CliResult {
    status: number | null;
    stdout: string;
    stderr: string;
}

export function chainlab(
    args: string[],
    options: { cwd?: string; input?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<CliResult> {
    return run(process.execPath, [cli, ...args], options);
}

/** A process to its end (killed after `timeoutMs`): exit status and all it printed. */
export function run(
    command: string,
    args: string[],
    options: { cwd?: string; input?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<CliResult> {
    return new Promise((resolve, reject) => {
        const child = spawn(command, args, {
            cwd: options.cwd ?? repo,
            env: { ...process.env, ...options.env },
            timeout: options.timeoutMs ?? 300_000,
        });
        let stdout = '';
        let stderr = '';
        child.stdout.setEncoding('utf-8').on('data', (chunk: string) => (stdout += chunk));
        child.stderr.setEncoding('utf-8').on('data', (chunk: string) => (stderr += chunk));
        child.on('error', reject);
        child.on('close', status => resolve({ status, stdout, stderr }));
        child.stdin.end(options.input);
    });
}

const temporary: string[] = [];
// Registered while the test file that imports this module is collected: runs after its tests.
afterAll(() => {
    for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temporary folder, removed when the test process exits. */
export function tempDir(prefix: string): string {
    const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
    temporary.push(dir);
    return dir;
}
