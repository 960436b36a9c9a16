/**
 * The analysis backend for a user who installed only the .vsix: on first use a private virtual environment in the
 * extension's global storage, with the backend wheel shipped inside the .vsix and its pinned dependencies from the
 * user's package index (or a wheelhouse folder / pip options named in the settings, for offline machines). The
 * setting `chainlab.python` overrides all of it. A half-made environment is never taken for a ready one: it counts
 * only once its stamp (the wheel's hash) is written, last.
 */
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { backendPointerPath, type BackendPointer } from '@chainlab/contract';
import { writeFileAtomic } from './atomic-write';
import { SetupLock } from './setup-lock';
import { CANCELLED, runSetupStep } from './setup-process';
import { findSetupPython, SetupError } from './setup-python';

/** What the stamp of a ready environment records: which wheel it holds. */
interface Stamp {
    wheel: string;
    sha256: string;
}

/** The pip options of the settings: a wheelhouse means no index at all (an offline machine). */
function pipOptions(settings: vscode.WorkspaceConfiguration): string[] {
    const wheelhouse = settings.get<string>('backend.wheelhouse', '').trim();
    const extra = settings.get<string[]>('backend.pipArgs', []).filter(arg => typeof arg === 'string' && arg);
    return [...(wheelhouse ? ['--no-index', '--find-links', wheelhouse] : []), ...extra];
}

export class BackendSetup implements vscode.Disposable {
    private readonly home: string;
    private readonly lock: SetupLock;
    private running: Promise<boolean> | undefined;
    /** The venv or pip process of a set-up under way (stopped when the window goes). */
    private child: ChildProcess | undefined;

    constructor(
        private readonly context: vscode.ExtensionContext,
        private readonly output: vscode.OutputChannel,
    ) {
        this.home = join(context.globalStorageUri.fsPath, 'backend');
        this.lock = new SetupLock(`${this.home}.lock`);
    }

    dispose(): void {
        this.child?.kill('SIGKILL');
    }

    /** The interpreter the user configured (`chainlab.python`), if any. */
    configured(): string | undefined {
        return vscode.workspace.getConfiguration('chainlab').get<string>('python')?.trim() || undefined;
    }

    /** The interpreter the language server runs the backend with: the configured one, else the private one. */
    python(): string {
        return this.configured() ?? join(this.home, 'venv', 'bin', 'python');
    }

    /** The wheel shipped in the .vsix (dist/backend/chainlab_backend-*.whl). */
    private wheel(): string {
        const folder = this.context.asAbsolutePath(join('dist', 'backend'));
        const wheels = existsSync(folder) ? readdirSync(folder).filter(f => /^chainlab_backend-.*\.whl$/.test(f)) : [];
        if (wheels.length !== 1)
            throw new SetupError(`the extension's backend wheel is missing from ${folder}: reinstall the extension`);
        return join(folder, wheels[0]);
    }

    private stampOf(wheel: string): Stamp {
        return {
            wheel: wheel.split('/').pop()!,
            sha256: createHash('sha256').update(readFileSync(wheel)).digest('hex'),
        };
    }

    private installed(): Stamp | undefined {
        try {
            return JSON.parse(readFileSync(join(this.home, 'installed.json'), 'utf-8')) as Stamp;
        } catch {
            return undefined;
        }
    }

    /** True when no set-up is needed: a configured interpreter, or the private one holding the shipped wheel. */
    isReady(): boolean {
        if (this.configured()) return true;
        try {
            const stamp = this.installed();
            return !!stamp && stamp.sha256 === this.stampOf(this.wheel()).sha256 && existsSync(this.python());
        } catch {
            return false;
        }
    }

    /**
     * Sets the environment up unless it is ready (one set-up at a time; callers wait for it). False when it failed,
     * after the user was told why and what to do.
     */
    ready(): Promise<boolean> {
        if (this.isReady()) return Promise.resolve(true);
        this.running ??= this.setUp(false).finally(() => (this.running = undefined));
        return this.running;
    }

    /** A new environment from scratch (the command *Set up the backend again*). */
    reinstall(): Promise<boolean> {
        this.running ??= this.setUp(true).finally(() => (this.running = undefined));
        return this.running;
    }

    private async setUp(fresh: boolean): Promise<boolean> {
        const title = 'chainlab: setting up the analysis backend (first use, once)';
        try {
            await vscode.window.withProgress(
                { location: vscode.ProgressLocation.Notification, title, cancellable: true },
                (progress, token) => this.install(fresh, progress, token),
            );
            this.output.appendLine(`backend ready: ${this.python()}`);
            void vscode.window.showInformationMessage(`chainlab: the analysis backend is ready (${this.python()})`);
            return true;
        } catch (error) {
            const message = (error as Error).message;
            this.output.appendLine(`backend set-up failed: ${message}`);
            const setting = error instanceof SetupError ? error.setting : undefined;
            const buttons = ['Show log', ...(setting ? ['Open settings'] : [])];
            void vscode.window
                .showErrorMessage(`chainlab: the analysis backend could not be set up: ${message}`, ...buttons)
                .then(choice => {
                    if (choice === 'Show log') this.output.show();
                    if (choice === 'Open settings')
                        void vscode.commands.executeCommand('workbench.action.openSettings', setting);
                });
            return false;
        }
    }

    /** The set-up under the lock: another window may be doing it, or may have done it meanwhile. */
    private async install(
        fresh: boolean,
        progress: vscode.Progress<{ message?: string; increment?: number }>,
        token: vscode.CancellationToken,
    ): Promise<void> {
        const waiting = () => progress.report({ message: 'another window is setting it up; waiting for it' });
        if (!(await this.lock.acquire(token, waiting))) throw new SetupError(CANCELLED);
        try {
            if (fresh || !this.isReady()) await this.installLocked(fresh, progress, token);
        } finally {
            this.lock.release();
        }
    }

    private async installLocked(
        fresh: boolean,
        progress: vscode.Progress<{ message?: string; increment?: number }>,
        token: vscode.CancellationToken,
    ): Promise<void> {
        const wheel = this.wheel();
        const venv = join(this.home, 'venv');
        const stamp = this.installed();
        const upgrade = !fresh && !!stamp && existsSync(this.python());
        if (!upgrade) {
            // no stamp: whatever is there is a set-up that did not finish
            rmSync(this.home, { recursive: true, force: true });
            const python = findSetupPython();
            progress.report({ message: `a virtual environment (${python})`, increment: 5 });
            await this.run(python, ['-m', 'venv', venv], token);
        }
        const options = pipOptions(vscode.workspace.getConfiguration('chainlab'));
        const pip = [this.python(), '-m', 'pip', 'install', '--disable-pip-version-check', '--progress-bar', 'off'];
        const hint =
            'Without network access, set chainlab.backend.wheelhouse to a folder with the wheels of its dependencies ' +
            `(on a machine with access: pip download -d FOLDER ${wheel}); or give pip its index in chainlab.backend.pipArgs.`;
        await this.run(pip[0], [...pip.slice(1), ...options, wheel], token, {
            hint,
            onLine: line => {
                if (/^\s*(Collecting|Processing|Installing collected)/.test(line))
                    progress.report({ message: line.trim().slice(0, 80), increment: 3 });
            },
        });
        // the same version number with other contents (an updated extension): the wheel replaces the old one
        if (upgrade)
            await this.run(pip[0], [...pip.slice(1), ...options, '--force-reinstall', '--no-deps', wheel], token, {
                hint,
            });
        writeFileAtomic(join(this.home, 'installed.json'), JSON.stringify(this.stampOf(wheel)) + '\n');
        // the CLI outside VS Code finds this environment through it
        const pointer: BackendPointer = {
            python: this.python(),
            wheel: this.stampOf(wheel).wheel,
            by: 'chainlab VS Code extension',
        };
        writeFileAtomic(backendPointerPath(process.env, homedir()), JSON.stringify(pointer) + '\n');
    }

    /** One step as a process, its output to the log, its child named in the lock while it runs. */
    private run(
        command: string,
        args: string[],
        token: vscode.CancellationToken,
        options: { onLine?: (line: string) => void; hint?: string } = {},
    ): Promise<void> {
        return runSetupStep(command, args, {
            ...options,
            token,
            log: line => this.output.appendLine(line),
            onChild: child => {
                this.child = child;
                this.lock.setChild(child?.pid);
            },
        });
    }
}
