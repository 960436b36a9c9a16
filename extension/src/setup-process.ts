/**
 * One step of the backend set-up as a process (venv, pip): its output to the log, progress from its lines, and
 * when it fails a SetupError that quotes the line saying why, with what the user can do about it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { SetupError } from './setup-python';

/** The parts of VS Code's CancellationToken a step needs (plain objects in tests). */
export interface StepToken {
    readonly isCancellationRequested: boolean;
    onCancellationRequested(listener: () => void): { dispose(): void };
}

export interface StepOptions {
    token: StepToken;
    /** Every line of output, and the command line first. */
    log: (line: string) => void;
    onLine?: (line: string) => void;
    /** The child while it runs, undefined once it ended (so that whoever takes over can stop it). */
    onChild?: (child: ChildProcess | undefined) => void;
    /** What to do if it fails, appended to the message; a hint also offers the settings. */
    hint?: string;
}

export const CANCELLED = 'cancelled; it starts again on next use';

/** The line of `tail` that says why it failed: pip's error, else the last line. */
function reason(tail: string[]): string {
    return (tail.filter(l => /error|could not|no matching|not find/i.test(l)).pop() ?? tail.pop() ?? '').trim();
}

/** Runs `command`; resolves when it exits 0, else rejects with a SetupError naming it, why, and the hint. */
export function runSetupStep(command: string, args: string[], options: StepOptions): Promise<void> {
    const { token, log, onLine, onChild, hint } = options;
    log(`$ ${command} ${args.join(' ')}`);
    const child = spawn(command, args, { env: { ...process.env, PIP_NO_INPUT: '1' } });
    onChild?.(child);
    const tail: string[] = [];
    const take = (chunk: Buffer) => {
        for (const line of String(chunk)
            .split('\n')
            .filter(l => l.trim())) {
            log(line);
            tail.push(line);
            if (tail.length > 8) tail.shift();
            onLine?.(line);
        }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    const cancel = token.onCancellationRequested(() => child.kill());
    return new Promise<void>((resolve, reject) => {
        child.on('error', error => reject(new SetupError(`${command} could not be started: ${error.message}`)));
        child.on('close', code => {
            cancel.dispose();
            onChild?.(undefined);
            if (token.isCancellationRequested) return reject(new SetupError(CANCELLED));
            if (code === 0) return resolve();
            const what = `${command.split('/').pop()} ${args.slice(0, 3).join(' ')}`;
            const message = `'${what}…' failed (exit ${code}): ${reason(tail)}.${hint ? ` ${hint}` : ''}`;
            reject(new SetupError(message, hint ? 'chainlab.backend' : undefined));
        });
    });
}
