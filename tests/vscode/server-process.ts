/** An IDE server (code-server, Theia) as a child of a suite: a free port, its log, waiting for it, stopping it. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
    return new Promise((resolve, reject) => {
        const server = createServer();
        server.listen(0, '127.0.0.1', () => {
            const port = (server.address() as { port: number }).port;
            server.close(() => resolve(port));
        });
        server.on('error', reject);
    });
}

export interface ServerProcess {
    child: ChildProcess;
    /** Everything it wrote so far, stdout and stderr. */
    log: () => string;
    /** SIGTERM to its process group, SIGKILL 5 s later (its children, such as language servers, go too). */
    stop: () => Promise<void>;
}

/** Starts `command` in a process group of its own, collecting its output. */
export function startServer(command: string, args: string[], env: NodeJS.ProcessEnv, cwd?: string): ServerProcess {
    let output = '';
    const child = spawn(command, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    child.stdout.on('data', chunk => (output += String(chunk)));
    child.stderr.on('data', chunk => (output += String(chunk)));
    const signal = (name: NodeJS.Signals) => {
        try {
            process.kill(-child.pid!, name);
        } catch {
            /* gone */
        }
    };
    return {
        child,
        log: () => output,
        stop: async () => {
            if (child.exitCode !== null) return;
            signal('SIGTERM');
            await new Promise(resolve => {
                const t = setTimeout(resolve, 5000);
                child.once('exit', () => {
                    clearTimeout(t);
                    resolve(undefined);
                });
            });
            signal('SIGKILL');
        },
    };
}

/** Waits until `url` answers 200, failing early with the log if the server exits. */
export async function waitUntilServing(name: string, url: string, server: ServerProcess, timeoutMs = 60_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
        try {
            if ((await fetch(url)).ok) return;
        } catch {
            /* not listening yet */
        }
        if (server.child.exitCode !== null)
            throw new Error(`${name} exited (${server.child.exitCode}): ${server.log()}`);
        if (Date.now() > deadline)
            throw new Error(`${name} did not answer on ${url} within ${timeoutMs / 1000} s: ${server.log()}`);
        await new Promise(resolve => setTimeout(resolve, 200));
    }
}
