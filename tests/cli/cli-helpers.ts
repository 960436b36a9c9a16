/** Runs the real chainlab CLI as a child process. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export const repo = join(__dirname, '..', '..');
export const cli = join(repo, 'language', 'bin', 'chainlab.js');

export interface CliResult { status: number | null; stdout: string; stderr: string }

export function chainlab(args: string[], options: { cwd?: string; input?: string } = {}): CliResult {
    const result = spawnSync(process.execPath, [cli, ...args], { cwd: options.cwd ?? repo, encoding: 'utf-8', input: options.input, timeout: 300_000 });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
