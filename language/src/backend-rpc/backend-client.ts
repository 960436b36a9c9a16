/**
 * The client side of the backend's JSON-RPC interface: starts the Python
 * backend as a child process and speaks JSON-RPC over its stdio. The CLI and
 * the language server both use this class.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough } from 'node:stream';
import {
    CancellationTokenSource,
    NotificationType,
    ResponseError,
    createMessageConnection,
    type CancellationToken,
    type MessageConnection,
} from 'vscode-jsonrpc/node.js';
import { StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node.js';
import {
    CONTRACT_VERSION,
    ERROR_CODES,
    type BackendMethod,
    type BackendProgressParams,
    type ContractMismatchData,
    type ErrorData,
    type ParamsOf,
    type ResultOf,
} from '@chainlab/contract';
import { NO_BACKEND_MESSAGE, checkoutRoot, findBackendPython } from './backend-python.js';

/** An error the backend reports about the model: print it, do not treat it as a crash. */
export class BackendModelError extends Error {
    constructor(
        message: string,
        readonly data: ErrorData | undefined,
    ) {
        super(message);
    }
}

export class BackendUnavailableError extends Error {}

/** Any other error reply (an internal error of the backend): one line for the user, the details in its log. */
export class BackendError extends Error {}

function firstLine(text: string): string {
    const line = text.split('\n', 1)[0];
    return line.length > 500 ? `${line.slice(0, 500)}...` : line;
}

/** The backend speaks another contract version than this client (an old install on one side): trust nothing it says. */
export class ContractMismatchError extends BackendUnavailableError {
    constructor(readonly backendVersion: string | undefined) {
        super(
            `chainlab backend speaks contract ${backendVersion ?? 'none (it predates the contract)'}, this client ${CONTRACT_VERSION}: install matching versions of the backend (chainlab-backend) and of the CLI or extension`,
        );
    }

    /** The error data of CONTRACT_MISMATCH (none for a backend that names no version). */
    get data(): ContractMismatchData | undefined {
        return this.backendVersion === undefined
            ? undefined
            : { backend: this.backendVersion, client: CONTRACT_VERSION };
    }
}

export class RequestCancelledError extends Error {}

export type Progress = Omit<BackendProgressParams, 'token'>;

/** The backend's Python (see backend-python.ts for where it is looked for), else what to do to get one. */
export function backendPython(): string {
    const python = findBackendPython();
    if (python) return python;
    const checkout = checkoutRoot();
    const inCheckout = checkout ? ` (in this checkout, ${checkout}: run 'npm run setup')` : '';
    throw new BackendUnavailableError(`${NO_BACKEND_MESSAGE}${inCheckout}`);
}

let nextToken = 0;

/**
 * How long the backend may take to answer the contract handshake: a CHAINLAB_PYTHON that starts but never speaks
 * JSON-RPC must not hang the CLI. Generous, as a cold start on a loaded machine imports numpy for seconds.
 */
function handshakeTimeoutMs(): number {
    const seconds = Number(process.env.CHAINLAB_BACKEND_HANDSHAKE_S);
    return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 60_000;
}

/** Why a process could not be started (ENOENT → "not found"), as one phrase. */
function startFailure(error: NodeJS.ErrnoException): string {
    if (error.code === 'ENOENT') return 'not found';
    if (error.code === 'EACCES') return 'permission denied (not executable?)';
    return error.code ?? error.message;
}

export class BackendClient {
    private readonly connection: MessageConnection;
    private readonly child: ChildProcess;
    private readonly stderr: string[] = [];
    private exited = false;
    /** Set when the interpreter could not be started at all (spawn's 'error'). */
    private startError: NodeJS.ErrnoException | undefined;
    private readonly progressHandlers = new Map<number, (p: Progress) => void>();
    /** Requests in flight, rejected when the backend process dies (the stream alone would leave them pending):
     * each is told how it ended (" (killed by SIGKILL)") and its last stderr lines. */
    private readonly inFlight = new Set<(how: string, stderr: string) => void>();
    /** The contract handshake, sent at start; every request waits for it. */
    private readonly handshake: Promise<void>;
    /** Why a message from the backend could not be read (a body that is not JSON, a bad header): set when it was. */
    private unreadable: string | undefined;

    private constructor(private readonly python: string) {
        // the backend ends when this process ends, even killed (PR_SET_PDEATHSIG there, checked against this pid)
        this.child = spawn(python, ['-m', 'chainlab.rpc'], {
            stdio: ['pipe', 'pipe', 'pipe'],
            env: { ...process.env, CHAINLAB_PARENT_PID: String(process.pid) },
        });
        this.child.stderr!.on('data', chunk => {
            this.stderr.push(String(chunk));
            if (this.stderr.length > 200) this.stderr.shift();
        });
        this.child.on('exit', () => this.died());
        this.child.stdin!.on('error', () => this.died()); // EPIPE: the backend is gone; requests report that
        this.child.on('error', (error: NodeJS.ErrnoException) => {
            if (error.syscall?.startsWith('spawn')) this.startError = error;
            this.died();
        });
        // Requests go through a PassThrough: a write to a backend that just died must not fail inside
        // vscode-jsonrpc (it rethrows write errors as unhandled rejections); died() rejects what is in flight.
        const toBackend = new PassThrough();
        toBackend.pipe(this.child.stdin!);
        const fromBackend = new StreamMessageReader(this.child.stdout!);
        // vscode-jsonrpc drops a message it cannot parse and fires this: the reply it was is lost, so its request
        // would wait forever; which request it answered is unknown, so every one in flight fails
        fromBackend.onError(error => this.cannotRead(error));
        this.connection = createMessageConnection(fromBackend, new StreamMessageWriter(toBackend));
        this.connection.onNotification(new NotificationType<BackendProgressParams>('progress'), params => {
            this.progressHandlers.get(params.token)?.({ fraction: params.fraction, message: params.message });
        });
        this.connection.listen();
        this.handshake = this.agreeOnContract();
        this.handshake.catch(() => undefined); // reported to the requests that wait for it, if any
    }

    /**
     * The first request: both sides compare their contract version (the backend refuses another, the client checks
     * its answer).
     */
    private async agreeOnContract(): Promise<void> {
        const asked = this.connection.sendRequest<ResultOf<'backend/version'>>('backend/version', {
            contract_version: CONTRACT_VERSION,
        } satisfies ParamsOf<'backend/version'>);
        asked.catch(() => undefined); // a backend that dies first is reported by the request waiting on this
        const limit = handshakeTimeoutMs();
        let timer: NodeJS.Timeout | undefined;
        const silent = new Promise<never>((_, reject) => {
            timer = setTimeout(() => {
                this.exited = true;
                this.child.kill('SIGKILL');
                reject(
                    new BackendUnavailableError(
                        `the backend (${this.python} -m chainlab.rpc) did not answer within ${limit / 1000} s: is it chainlab's backend? (check CHAINLAB_PYTHON)`,
                    ),
                );
            }, limit);
        });
        try {
            const version = await Promise.race([asked, silent]);
            if (version.contract_version !== CONTRACT_VERSION)
                throw new ContractMismatchError(version.contract_version);
        } catch (error) {
            if (error instanceof ResponseError && error.code === ERROR_CODES.CONTRACT_MISMATCH) {
                throw new ContractMismatchError((error.data as ContractMismatchData | undefined)?.backend);
            }
            throw error;
        } finally {
            clearTimeout(timer);
        }
    }

    /** A message from the backend is not JSON-RPC (a backend bug): it is stopped, and died() fails the requests. */
    private cannotRead(error: Error): void {
        if (this.exited) return;
        this.unreadable = firstLine(error.message);
        this.exited = true;
        this.child.kill('SIGKILL');
    }

    private died(): void {
        this.exited = true;
        // let the last stderr lines arrive before the message quotes them
        setTimeout(() => {
            const how = this.child.signalCode
                ? ` (killed by ${this.child.signalCode})`
                : this.child.exitCode !== null
                  ? ` (exit code ${this.child.exitCode})`
                  : '';
            for (const reject of this.inFlight) reject(how, this.lastStderr());
            this.inFlight.clear();
        }, 50);
    }

    static start(python = backendPython()): BackendClient {
        return new BackendClient(python);
    }

    /** Ctrl-C for the work in flight: the backend stops its run and still replies with what was measured. */
    interrupt(): void {
        if (!this.exited) this.child.kill('SIGINT');
    }

    get running(): boolean {
        return !this.exited;
    }

    /**
     * Calls a backend method; model errors become BackendModelError, a dead backend BackendUnavailableError.
     * A time-out or a cancellation rejects at once and kills the backend (work in flight cannot be
     * interrupted otherwise); the caller starts a new one for the next request.
     */
    async request<M extends BackendMethod>(
        method: M,
        params: ParamsOf<M>,
        options: { onProgress?: (p: Progress) => void; timeoutMs?: number; cancellation?: CancellationToken } = {},
    ): Promise<ResultOf<M>> {
        if (this.exited)
            throw new BackendUnavailableError(this.cannotStart() ?? `the backend is not running${this.lastStderr()}`);
        const token = ++nextToken;
        const cancel = new CancellationTokenSource();
        let stop: ((error: Error) => void) | undefined;
        const stopped = new Promise<never>((_, reject) => {
            stop = reject;
        });
        const abort = (error: Error) => {
            cancel.cancel();
            this.exited = true;
            this.child.kill('SIGKILL');
            stop!(error);
        };
        const timer = options.timeoutMs
            ? setTimeout(
                  () =>
                      abort(
                          new BackendUnavailableError(
                              `${method} took longer than ${options.timeoutMs! / 1000} s; the backend was stopped`,
                          ),
                      ),
                  options.timeoutMs,
              )
            : undefined;
        const listener = options.cancellation?.onCancellationRequested(() =>
            abort(new RequestCancelledError(`${method} was cancelled`)),
        );
        if (options.onProgress) this.progressHandlers.set(token, options.onProgress);
        const onDeath = (how: string, stderr: string) =>
            stop!(
                this.unreadable !== undefined
                    ? new BackendError(
                          `the backend sent a message that is not JSON-RPC during ${method} (${this.unreadable}); it was stopped`,
                      )
                    : new BackendUnavailableError(
                          this.cannotStart() ??
                              `the backend exited during ${method}${how}; the next request starts a new one${stderr}`,
                      ),
            );
        this.inFlight.add(onDeath);
        try {
            await Promise.race([this.handshake, stopped]);
            const reply = this.connection.sendRequest<ResultOf<M>>(
                method,
                { ...params, progressToken: options.onProgress ? token : undefined },
                cancel.token,
            );
            reply.catch(() => undefined); // after an abort nobody waits for the reply any more
            return await Promise.race([reply, stopped]);
        } catch (error) {
            if (
                error instanceof RequestCancelledError ||
                error instanceof BackendUnavailableError ||
                error instanceof BackendError
            )
                throw error;
            if (error instanceof ResponseError && error.code === ERROR_CODES.MODEL_ERROR) {
                throw new BackendModelError(error.message, error.data as ErrorData | undefined);
            }
            if (this.exited || this.child.exitCode !== null || this.child.signalCode !== null) {
                await new Promise(r => setTimeout(r, 50)); // its last stderr lines
                throw new BackendUnavailableError(
                    this.cannotStart() ?? `the backend exited during ${method}${this.lastStderr()}`,
                );
            }
            if (error instanceof ResponseError)
                throw new BackendError(`the backend failed in ${method}: ${firstLine(error.message)}`);
            throw error;
        } finally {
            if (timer) clearTimeout(timer);
            this.inFlight.delete(onDeath);
            listener?.dispose();
            this.progressHandlers.delete(token);
        }
    }

    async stop(): Promise<void> {
        if (!this.exited) {
            try {
                await this.connection.sendNotification('exit', {});
            } catch {
                /* already gone */
            }
            await new Promise<void>(done => {
                const kill = setTimeout(() => {
                    this.child.kill('SIGKILL');
                    done();
                }, 3000);
                this.child.once('exit', () => {
                    clearTimeout(kill);
                    done();
                });
                if (this.exited) {
                    clearTimeout(kill);
                    done();
                }
            });
        }
        this.connection.dispose();
    }

    /** The interpreter could not be started: that, not "exited (exit code -2)". */
    private cannotStart(): string | undefined {
        if (!this.startError) return undefined;
        return `cannot start the backend: ${this.python}: ${startFailure(this.startError)} (set CHAINLAB_PYTHON to a Python that has the chainlab backend: python3 -m pip install chainlab-backend)`;
    }

    private lastStderr(): string {
        const text = this.stderr.join('').trim();
        return text ? `:\n${text.split('\n').slice(-15).join('\n')}` : '';
    }
}
