/**
 * The cross-window lock of the backend set-up, with real processes: a folder in a global storage that does not
 * exist yet, a second holder that waits, and a lock whose owner died taken over with its orphaned child stopped.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type * as vscode from 'vscode';
import { SetupLock } from '../src/setup-lock';

const notCancelled = { isCancellationRequested: false } as vscode.CancellationToken;
const folders: string[] = [];

function scratch(): string {
    const dir = mkdtempSync(join(tmpdir(), 'chainlab-lock-'));
    folders.push(dir);
    return dir;
}

function alive(pid: number): boolean {
    try {
        process.kill(pid, 0);
        return true;
    } catch {
        return false;
    }
}

afterEach(() => {
    for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('SetupLock', () => {
    test('is taken in a global storage folder that does not exist yet (before first use)', async () => {
        const path = join(scratch(), 'globalStorage', 'chainlab.chainlab-vscode', 'backend.lock');
        const lock = new SetupLock(path);
        expect(await lock.acquire(notCancelled, () => {})).toBe(true);
        expect(existsSync(join(path, 'owner.json'))).toBe(true);
        lock.release();
        expect(existsSync(path)).toBe(false);
    });

    test('a second holder waits, is told once, and gets it when the first releases', async () => {
        const path = join(scratch(), 'backend.lock');
        const first = new SetupLock(path);
        await first.acquire(notCancelled, () => {});
        let told = 0;
        const second = new SetupLock(path).acquire(notCancelled, () => told++);
        await new Promise(resolve => setTimeout(resolve, 1500));
        expect(told).toBe(1);
        first.release();
        expect(await second).toBe(true);
    });

    test('cancelled while waiting: false, the other holder keeps it', async () => {
        const path = join(scratch(), 'backend.lock');
        await new SetupLock(path).acquire(notCancelled, () => {});
        const token = { isCancellationRequested: false };
        const waiting = new SetupLock(path).acquire(token as vscode.CancellationToken, () => {
            token.isCancellationRequested = true;
        });
        expect(await waiting).toBe(false);
        expect(existsSync(join(path, 'owner.json'))).toBe(true);
    });

    test("a dead owner's lock is taken over and its orphaned child stopped", async () => {
        const path = join(scratch(), 'backend.lock');
        const child = spawn('sleep', ['60'], { stdio: 'ignore' });
        const dead = spawn('true');
        await new Promise(resolve => dead.on('exit', resolve));
        mkdirSync(path);
        writeFileSync(join(path, 'owner.json'), JSON.stringify({ pid: dead.pid, child: child.pid }));
        const exited = new Promise(resolve => child.on('exit', resolve));
        expect(await new SetupLock(path).acquire(notCancelled, () => {})).toBe(true);
        await exited;
        expect(alive(child.pid!)).toBe(false);
    });
});
