/**
 * Which Python makes the backend's environment, with stand-in interpreters on PATH (shell scripts that answer the
 * probe as a given version would): the newest with venv wins, and each way of failing says what to install.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { findSetupPython, probePython, SetupError } from '../src/setup-python';

const folders: string[] = [];

/** A PATH holding only `interpreters`: name → "MAJOR MINOR VENV" as the probe prints it. */
function fakePath(interpreters: Record<string, string>): NodeJS.ProcessEnv {
    const bin = mkdtempSync(join(tmpdir(), 'chainlab-python-'));
    folders.push(bin);
    for (const [name, answer] of Object.entries(interpreters)) {
        writeFileSync(join(bin, name), `#!/bin/sh\necho "${answer}"\n`);
        chmodSync(join(bin, name), 0o755);
    }
    return { PATH: bin };
}

function failure(env: NodeJS.ProcessEnv): SetupError {
    try {
        findSetupPython(env);
    } catch (error) {
        expect(error).toBeInstanceOf(SetupError);
        return error as SetupError;
    }
    throw new Error('expected a SetupError');
}

afterEach(() => {
    for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('findSetupPython', () => {
    test("this machine's python3 is probed for real", () => {
        const probe = probePython('python3');
        expect(probe?.version[0]).toBe(3);
    });

    test('the newest interpreter of 3.11 or later that has venv', () => {
        const env = fakePath({ 'python3.13': '3 13 0', 'python3.12': '3 12 1', python3: '3 11 1' });
        expect(findSetupPython(env)).toBe('python3.12');
    });

    test('none with venv: the Debian package to install', () => {
        const error = failure(fakePath({ python3: '3 12 0' }));
        expect(error.message).toContain('venv module is missing');
        expect(error.message).toContain('sudo apt install python3.12-venv');
        expect(error.setting).toBeUndefined();
    });

    test('only an old Python: which one, and the setting that gets past it', () => {
        const error = failure(fakePath({ python3: '3 9 1' }));
        expect(error.message).toContain('needs Python 3.11 or newer on PATH (found only Python 3.9)');
        expect(error.setting).toBe('chainlab.python');
    });

    test('no Python at all', () => {
        const error = failure(fakePath({}));
        expect(error.message).toMatch(/^chainlab's analysis backend needs Python 3\.11 or newer on PATH\. Install it/);
    });
});
