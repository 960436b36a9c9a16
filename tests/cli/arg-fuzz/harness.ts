/**
 * Runs generated `chainlab` argument vectors and judges them (issue 17). Most cases go through the CLI's real entry
 * point in one worker process (worker.mjs; the backend it starts is the real Python process); a sample goes through
 * separate real processes (`node language/bin/chainlab.js ...`), and both must give the same exit status. Everything
 * runs in a temporary folder (cwd, HOME, TMPDIR and the build cache point there), with the sample models copied in.
 *
 * The oracle of a case: an exit status of 0-3 (never 70, the internal error, nor a signal), no JS stack or Python
 * traceback on stderr, every stderr line readable (no raw control character, at most MAX_LINE characters), the case
 * ends within its time bound, the worker stays under MAX_RSS (the whole run's peak, backends included, is measured
 * by /usr/bin/time), and no file outside the temporary folder changes.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
    cpSync,
    existsSync,
    mkdirSync,
    readdirSync,
    readFileSync,
    statSync,
    symlinkSync,
    truncateSync,
    writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { prng, type FileSpace, type FuzzCase } from './cases.js';

export const repo = join(__dirname, '..', '..', '..');
const cli = join(repo, 'language', 'bin', 'chainlab.js');
const workerScript = join(__dirname, 'worker.mjs');

/** Exit statuses a user may see: ok, error (or a failed requirement's 3), usage error. */
export const ALLOWED_STATUS = new Set([0, 1, 2, 3]);
/** The longest stderr line a case may print: a message quotes a short prefix of a hostile value, never all of it. */
export const MAX_LINE = 2000;
/** Peak memory of one case's processes (CLI or worker, with the backend they start). */
export const MAX_RSS_BYTES = 1536 * 1024 * 1024;

export interface CaseResult {
    readonly index: number;
    readonly status: number | null;
    readonly signal?: string | null;
    readonly stdout: string;
    readonly stderr: string;
    readonly ms: number;
    /** bytes of resident memory: the worker after the case, or a process's peak (with its children) */
    readonly rss: number;
    readonly hang?: boolean;
    readonly exitCalled?: number;
    readonly workerDied?: string;
}

/** What is wrong with a case's result (empty: nothing). */
export function judge(result: CaseResult, timeBoundMs: number): string[] {
    const problems: string[] = [];
    if (result.hang) problems.push(`no end within ${timeBoundMs / 1000} s`);
    if (result.workerDied) problems.push(`the process died: ${result.workerDied}`);
    if (result.exitCalled !== undefined) problems.push(`process.exit(${result.exitCalled}) inside the CLI`);
    if (result.signal) problems.push(`killed by ${result.signal}`);
    else if (!result.hang && !ALLOWED_STATUS.has(result.status ?? -1)) problems.push(`exit status ${result.status}`);
    const err = result.stderr;
    if (/\n\s+at .+[:(]\d+:\d+\)?/.test(err) || /^\s+at /m.test(err)) problems.push('a JS stack trace on stderr');
    if (/Traceback \(most recent call last\)|^\w+(Error|Exception): /m.test(err)) problems.push('a Python traceback');
    if (/internal error|uncaught:|ERR_[A-Z_]+|\bat Object\.|node:internal/.test(err))
        problems.push('an internal error');
    // eslint-disable-next-line no-control-regex
    if (/[\x00-\x08\x0b-\x1f\x7f-\x9f]/.test(err)) problems.push('a raw control character on stderr');
    const long = err.split('\n').find(line => line.length > MAX_LINE);
    if (long) problems.push(`a stderr line of ${long.length} characters`);
    if (result.rss > MAX_RSS_BYTES) problems.push(`${(result.rss / 2 ** 20).toFixed(0)} MiB resident`);
    return problems;
}

/** A readable line for a failing case: its index, argv (long values cut) and problems, and what it printed. */
export function describeFailure(fuzzCase: FuzzCase, result: CaseResult, problems: string[]): string {
    const show = (s: string) => JSON.stringify(s.length > 120 ? `${s.slice(0, 120)}...(${s.length} chars)` : s);
    return `case ${fuzzCase.index}: chainlab ${fuzzCase.args.map(show).join(' ')}\n  ${problems.join('; ')}\n  exit ${result.status}, stderr: ${show(result.stderr.slice(0, 600))}`;
}

// ------------------------------------------------------------------ the case folder

/** Element names declared in a model (chains, ptts, targets) and its components, by a plain scan of its text. */
function namesIn(text: string): { names: string[]; components: string[] } {
    const names = [...text.matchAll(/^\s*(?:chain|ptts|target)\s+([A-Za-z_]\w*)/gm)].map(m => m[1]);
    const components = [...text.matchAll(/^\s*component\s+([A-Za-z_]\w*)/gm)].map(m => m[1]);
    return { names, components };
}

/** Sets up the files the cases name inside `root` (the worker's cwd). */
export function fuzzFiles(root: string, seed: number): FileSpace {
    const random = prng(seed);
    const models: Array<{ path: string; names: string[]; components: string[] }> = [];
    const samples = join(repo, 'samples');
    cpSync(samples, join(root, 'samples'), { recursive: true });
    for (const file of readdirSync(join(root, 'samples'), { recursive: true }) as string[]) {
        if (!file.endsWith('.chain')) continue;
        const path = join('samples', file);
        const found = namesIn(readFileSync(join(root, path), 'utf-8'));
        models.push({ path, ...found });
        models.push({ path: join(root, path), ...found }); // the same by absolute path
    }
    cpSync(join(samples, 'ptts', 'thesis-fig5-2.chain'), join(root, '名前 model.chain'));
    models.push({ path: '名前 model.chain', ...namesIn(readFileSync(join(root, '名前 model.chain'), 'utf-8')) });
    const w = (name: string, content: string | Buffer) => writeFileSync(join(root, name), content);
    w('empty.chain', '');
    w('junk.chain', Buffer.from(Array.from({ length: 4096 }, () => Math.floor(random() * 256))));
    w('latin1.chain', Buffer.from('ptts P { component A period 10 ms etp point 1 ms } // caf\xe9\n', 'latin1'));
    w('controls.chain', 'ptts \x1b[2J\x1b]0;pwned\x07 { component A period 10 ms etp point 1 ms }\n');
    w('long-name.chain', `ptts ${'N'.repeat(50_000)} {\n  component A period 10 ms etp point 1 ms\n}\n`);
    w(
        'hist-fifo.chain',
        'ptts H {\n  component A period 10 ms etp histogram "fifo.csv"\n  component B period 7 ms etp point 1 ms\n}\n',
    );
    w(
        'hist-dev.chain',
        'ptts H {\n  component A period 10 ms etp histogram "/dev/zero"\n  component B period 7 ms etp point 1 ms\n}\n',
    );
    w(
        'hist-big.chain',
        'ptts H {\n  component A period 10 ms etp histogram "big.csv"\n  component B period 7 ms etp point 1 ms\n}\n',
    );
    w('big.csv', '');
    truncateSync(join(root, 'big.csv'), 300 * 1024 * 1024); // sparse
    w('huge.chain', '');
    truncateSync(join(root, 'huge.chain'), 5 * 1024 * 1024); // above the 4 MiB model limit
    w('notes.txt', 'not a model\n');
    w('existing.json', '{}\n');
    mkdirSync(join(root, 'dir.chain'));
    mkdirSync(join(root, 'existing-dir'));
    mkdirSync(join(root, 'user-dir'));
    w('user-dir/README.md', 'my notes\n');
    mkdirSync(join(root, 'home'));
    mkdirSync(join(root, 'tmp'));
    spawnSync('mkfifo', [join(root, 'fifo.chain'), join(root, 'fifo.csv')]);
    symlinkSync('/dev/zero', join(root, 'zero.chain'));
    symlinkSync('/dev/null', join(root, 'null.chain'));
    symlinkSync('loop.chain', join(root, 'loop.chain'));
    symlinkSync('missing-target', join(root, 'dangling.chain'));
    return {
        models,
        hostileInputs: [
            'missing.chain',
            'no/such/dir/missing.chain',
            'dir.chain',
            'samples',
            'empty.chain',
            'junk.chain',
            'latin1.chain',
            'controls.chain',
            'long-name.chain',
            'hist-fifo.chain',
            'hist-dev.chain',
            'hist-big.chain',
            'huge.chain',
            'fifo.chain',
            'zero.chain',
            'null.chain',
            'loop.chain',
            'dangling.chain',
            'notes.txt',
            '/dev/null',
            '/dev/zero',
            '/proc/self/mem',
            '/etc/hostname',
            '',
            '-',
            `${'z'.repeat(300)}.chain`,
            'a\nb.chain',
            '\x1b[2J.chain',
        ],
        outputs: [
            'out.json',
            'out-dir',
            'existing.json',
            'existing-dir',
            'user-dir',
            'dir.chain',
            'null.chain',
            '/dev/null',
            '/dev/full',
            '/proc/nope/out',
            'no/such/dir/out',
            'samples/chains/appendix-a.chain',
            `${'o'.repeat(300)}`,
            '',
            '.',
        ],
    };
}

/** The environment of every case: everything a run may write points into `root`; builds are cached across runs. */
export function fuzzEnv(root: string): Record<string, string> {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env))
        if (v !== undefined && !k.startsWith('VITEST') && k !== 'NODE_OPTIONS') env[k] = v;
    return {
        ...env,
        HOME: join(root, 'home'),
        TMPDIR: join(root, 'tmp'),
        CHAINLAB_CACHE: join(tmpdir(), 'chainlab-fuzz-cache'),
        CHAINLAB_KNOWN_HOSTS: join(root, 'home', 'known_hosts'),
    };
}

// ------------------------------------------------------------------ nothing written outside

/** What must not change: the repository's status and the user's known hosts and build cache. */
export function outsideSnapshot(): string {
    const git = spawnSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: repo, encoding: 'utf-8' });
    const stamp = (p: string) => (existsSync(p) ? `${p} ${statSync(p).mtimeMs} ${statSync(p).size}` : `${p} -`);
    const watched = [
        join(homedir(), '.ssh', 'known_hosts'),
        join(homedir(), '.cache', 'chainlab'),
        '/etc/passwd',
        '/etc/hostname',
        join(repo, 'samples'),
        join(repo, 'samples', 'chains'),
        join(repo, 'samples', 'ptts'),
    ];
    return [git.stdout, ...watched.map(stamp)].join('\n');
}

// ------------------------------------------------------------------ running cases

/** Parses and strips the line /usr/bin/time appends: peak resident set of the process and the children it reaped. */
function maxRss(stderr: string): { stderr: string; rss: number } {
    const match = /\n?chainlab-fuzz-maxrss (\d+)\n?$/.exec(stderr);
    return match
        ? { stderr: stderr.slice(0, match.index) + (match.index > 0 ? '\n' : ''), rss: Number(match[1]) * 1024 }
        : { stderr, rss: 0 };
}

const TIME_FORMAT = ['-f', 'chainlab-fuzz-maxrss %M'];

/** One case as its own real process: `node language/bin/chainlab.js ...args` under /usr/bin/time. */
export function runProcess(fuzzCase: FuzzCase, root: string, timeBoundMs: number): Promise<CaseResult> {
    return new Promise(resolve => {
        const started = performance.now();
        const child = spawn('/usr/bin/time', [...TIME_FORMAT, process.execPath, cli, ...fuzzCase.args], {
            cwd: root,
            env: fuzzEnv(root),
            detached: true, // its own process group: a hang is killed with everything it started
        });
        let stdout = '';
        let stderr = '';
        child.stdout.setEncoding('utf-8').on('data', (c: string) => stdout.length < 1 << 20 && (stdout += c));
        child.stderr.setEncoding('utf-8').on('data', (c: string) => stderr.length < 1 << 20 && (stderr += c));
        let hang = false;
        const timer = setTimeout(() => {
            hang = true;
            killGroup(child);
        }, timeBoundMs);
        child.stdin.end();
        child.on('close', status => {
            clearTimeout(timer);
            const timed = maxRss(stderr);
            // /usr/bin/time reports a child killed by a signal as "Command terminated by signal N"
            const signal = /Command terminated by signal (\d+)/.exec(timed.stderr)?.[1];
            resolve({
                index: fuzzCase.index,
                status,
                signal: signal ? `signal ${signal}` : null,
                stdout,
                stderr: timed.stderr.replace(
                    /Command (terminated by signal \d+|exited with non-zero status \d+)\n?/,
                    '',
                ),
                ms: performance.now() - started,
                rss: timed.rss,
                hang,
            });
        });
    });
}

function killGroup(child: ChildProcess): void {
    try {
        process.kill(-child.pid!, 'SIGKILL');
    } catch {
        child.kill('SIGKILL');
    }
}

/** The worker process (worker.mjs under /usr/bin/time), restarted after a case that hangs or kills it. */
export class InProcessRunner {
    private child: ChildProcess | undefined;
    private ready: Promise<void> | undefined;
    private pending: ((message: unknown) => void) | undefined;
    private died: ((why: string) => void) | undefined;
    private stderr = '';
    /** Peak resident memory of each worker that ended (worker + the backends it reaped), from /usr/bin/time. */
    readonly peaks: number[] = [];

    constructor(
        private readonly root: string,
        private readonly timeBoundMs: number,
    ) {}

    private start(): Promise<void> {
        this.stderr = '';
        const child = spawn('/usr/bin/time', [...TIME_FORMAT, process.execPath, workerScript], {
            cwd: this.root,
            env: fuzzEnv(this.root),
            stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
            detached: true,
        });
        this.child = child;
        child.stderr!.setEncoding('utf-8').on('data', (c: string) => (this.stderr = (this.stderr + c).slice(-4000)));
        child.on('message', message => this.pending?.(message));
        child.on('exit', (code, signal) => {
            const peak = maxRss(this.stderr).rss;
            if (peak) this.peaks.push(peak);
            if (this.child === child) this.child = undefined;
            this.died?.(`worker exited (${signal ?? code}): ${maxRss(this.stderr).stderr.slice(-600)}`);
        });
        return new Promise<void>((resolve, reject) => {
            this.pending = () => resolve();
            this.died = why => reject(new Error(why));
        });
    }

    async run(fuzzCase: FuzzCase): Promise<CaseResult> {
        if (!this.child) this.ready = this.start();
        await this.ready;
        const started = performance.now();
        return new Promise<CaseResult>(resolve => {
            const timer = setTimeout(() => {
                this.died = undefined;
                void this.stop();
                resolve({
                    index: fuzzCase.index,
                    status: null,
                    stdout: '',
                    stderr: '',
                    ms: this.timeBoundMs,
                    rss: 0,
                    hang: true,
                });
            }, this.timeBoundMs);
            this.pending = message => {
                clearTimeout(timer);
                resolve(message as CaseResult);
            };
            this.died = why => {
                clearTimeout(timer);
                const ms = performance.now() - started;
                resolve({ index: fuzzCase.index, status: null, stdout: '', stderr: '', ms, rss: 0, workerDied: why });
            };
            this.child!.send(fuzzCase);
        });
    }

    /** Ends the worker (and what it started) and waits until /usr/bin/time reported its peak. */
    stop(): Promise<void> {
        const child = this.child;
        this.child = undefined;
        if (!child || child.exitCode !== null) return Promise.resolve();
        const ended = new Promise<void>(resolve => child.once('exit', () => resolve()));
        if (child.connected) child.disconnect(); // the worker exits on disconnect: /usr/bin/time reports its peak
        const force = setTimeout(() => killGroup(child), 5000);
        return ended.finally(() => clearTimeout(force));
    }
}

/** The case folder name of a run, relative to the repository for messages. */
export const shown = (path: string) => relative(repo, path);
