/**
 * Runs `chainlab` cases in one process through the CLI's real entry point (`main` of language/out/cli/main.js, what
 * bin/chainlab.js calls), so that thousands of argument vectors cost milliseconds each instead of a Node start. What
 * the CLI writes to stdout and stderr is captured per case, its exit status is process.exitCode as main leaves it; the
 * backend it starts is the real Python process. Cases come and results go over the IPC channel:
 *   → { index, args }     ← { index, status, stdout, stderr, ms, rss, exitCalled? }
 * A case that never ends is the parent's to detect (it kills this worker and starts another).
 */
import { main } from '../../../language/out/cli/main.js';

/** What a case may print before the rest is dropped (the parent checks lengths, not megabytes of IR). */
const KEEP = 256 * 1024;

class ExitCalled extends Error {
    constructor(code) {
        super(`process.exit(${code})`);
        this.code = code;
    }
}

const realWrite = { out: process.stdout.write, err: process.stderr.write };
const realExit = process.exit;

function capture(stream, into) {
    stream.write = (chunk, encoding, callback) => {
        const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf-8');
        if (into.length < KEEP) into.push(text.slice(0, KEEP));
        into.bytes = (into.bytes ?? 0) + text.length;
        if (typeof encoding === 'function') encoding();
        else if (typeof callback === 'function') callback();
        return true;
    };
}

/** Listeners main and the commands add to the process (EPIPE on stdout; SIGINT/SIGTERM/SIGHUP during a run). */
const WATCHED = [
    [process.stdout, 'error'],
    [process, 'SIGINT'],
    [process, 'SIGTERM'],
    [process, 'SIGHUP'],
];

async function runCase({ index, args }) {
    const out = [];
    const err = [];
    const before = WATCHED.map(([emitter, event]) => emitter.listeners(event));
    capture(process.stdout, out);
    capture(process.stderr, err);
    let exitCalled;
    process.exit = code => {
        throw new ExitCalled(code);
    };
    process.exitCode = undefined;
    const started = performance.now();
    try {
        await main(['node', 'chainlab', ...args]);
    } catch (error) {
        // main handles every error itself; anything escaping it is what an uncaught exception would print
        if (error instanceof ExitCalled) exitCalled = error.code;
        else err.push(`uncaught: ${error?.stack ?? String(error)}\n`);
    } finally {
        process.stdout.write = realWrite.out;
        process.stderr.write = realWrite.err;
        process.exit = realExit;
    }
    const ms = performance.now() - started;
    WATCHED.forEach(([emitter, event], i) => {
        for (const listener of emitter.listeners(event))
            if (!before[i].includes(listener)) emitter.off(event, listener);
    });
    const status = exitCalled ?? (process.exitCode === undefined ? 0 : Number(process.exitCode));
    process.exitCode = undefined;
    return {
        index,
        status,
        stdout: out.join(''),
        stdoutBytes: out.bytes ?? 0,
        stderr: err.join(''),
        stderrBytes: err.bytes ?? 0,
        ms,
        rss: process.memoryUsage().rss,
        exitCalled,
    };
}

// one case at a time, in order
let queue = Promise.resolve();
process.on('message', message => {
    queue = queue.then(async () => process.send(await runCase(message)));
});
process.on('disconnect', () => realExit(0));
process.send({ ready: true });
