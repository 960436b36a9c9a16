/**
 * One set-up of the backend at a time across every window (each has its own extension host): a lock folder beside
 * the environment, naming the process that sets it up and its current child (venv, pip). A lock whose owner died (a
 * window closed or reloaded mid-set-up) is taken over, its orphaned child stopped first, so that no two processes
 * ever write into the same environment.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type * as vscode from 'vscode';

interface Owner {
    pid: number;
    child?: number;
}

function alive(pid: number | undefined): boolean {
    if (!pid) return false;
    try {
        process.kill(pid, 0);
        return true;
    } catch (error) {
        return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
}

export class SetupLock {
    private held = false;

    constructor(private readonly path: string) {}

    private owner(): Owner | undefined {
        try {
            return JSON.parse(readFileSync(join(this.path, 'owner.json'), 'utf-8')) as Owner;
        } catch {
            return undefined;
        }
    }

    private write(owner: Owner): void {
        writeFileSync(join(this.path, 'owner.json'), JSON.stringify(owner));
    }

    /** Waits until this process holds the lock (`onWait` once, when another one holds it); false if cancelled. */
    async acquire(token: vscode.CancellationToken, onWait: () => void): Promise<boolean> {
        let told = false;
        let unnamedSince: number | undefined;
        mkdirSync(dirname(this.path), { recursive: true }); // the global storage folder does not exist before first use
        while (!token.isCancellationRequested) {
            try {
                mkdirSync(this.path, { recursive: false });
                this.write({ pid: process.pid });
                this.held = true;
                return true;
            } catch (error) {
                if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
            }
            const owner = this.owner();
            // a lock folder without its owner yet is one being taken right now, unless it stays so (a crash between)
            unnamedSince = owner ? undefined : (unnamedSince ?? Date.now());
            const stale = owner ? !alive(owner.pid) : Date.now() - unnamedSince! > 10_000;
            if (stale) {
                if (owner?.child && alive(owner.child)) process.kill(owner.child, 'SIGKILL');
                rmSync(this.path, { recursive: true, force: true });
                continue;
            }
            if (!told) onWait();
            told = true;
            await new Promise(resolve => setTimeout(resolve, 1000));
        }
        return false;
    }

    /** Names the child now writing into the environment (stopped by whoever takes over a stale lock). */
    setChild(pid: number | undefined): void {
        if (this.held) this.write({ pid: process.pid, ...(pid ? { child: pid } : {}) });
    }

    release(): void {
        if (!this.held) return;
        this.held = false;
        rmSync(this.path, { recursive: true, force: true });
    }
}
