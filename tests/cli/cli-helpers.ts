/** Runs the real chainlab CLI as a child process. */
import { afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
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
    options: { cwd?: string; input?: string; env?: Record<string, string> } = {},
): CliResult {
    const result = spawnSync(process.execPath, [cli, ...args], {
        cwd: options.cwd ?? repo,
        encoding: 'utf-8',
        input: options.input,
        timeout: 300_000,
        env: { ...process.env, ...options.env },
    });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
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
