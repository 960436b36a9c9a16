/**
 * Where the backend's interpreter is looked for, in order: $CHAINLAB_PYTHON, the checkout's backend/.venv, python3
 * or python on PATH that imports the backend, the pointer file of the VS Code extension; none: undefined.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { checkoutRoot, findBackendPython, pointerFile } from '../../src/backend-rpc/backend-python.js';

const scratch = mkdtempSync(join(tmpdir(), 'chainlab-backend-python-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let folders = 0;

/** A new folder in the scratch area. */
function folder(): string {
    const dir = join(scratch, String(++folders));
    mkdirSync(dir, { recursive: true });
    return dir;
}

/** An executable that exits with `status` (a stand-in for an interpreter that does or does not have the backend). */
function executable(dir: string, name: string, status: number): string {
    const file = join(dir, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, `#!/bin/sh\nexit ${status}\n`);
    chmodSync(file, 0o755);
    return file;
}

/** A PATH of one folder holding the given interpreters; HOME and XDG_DATA_HOME point into the scratch area. */
function environment(interpreters: Record<string, number> = {}, pointer?: object): NodeJS.ProcessEnv {
    const bin = folder();
    for (const [name, status] of Object.entries(interpreters)) executable(bin, name, status);
    const env: NodeJS.ProcessEnv = { PATH: bin, HOME: folder(), XDG_DATA_HOME: folder() };
    if (pointer) {
        mkdirSync(join(env.XDG_DATA_HOME!, 'chainlab'), { recursive: true });
        writeFileSync(pointerFile(env), JSON.stringify(pointer));
    }
    return env;
}

describe('findBackendPython', () => {
    test('$CHAINLAB_PYTHON first, as it is', () => {
        const env = { ...environment({ python3: 0 }), CHAINLAB_PYTHON: '/opt/x/bin/python' };
        expect(findBackendPython({ env, checkout: undefined })).toBe('/opt/x/bin/python');
    });

    test("then the checkout's backend/.venv, before PATH", () => {
        const checkout = folder();
        const venv = executable(join(checkout, 'backend', '.venv', 'bin'), 'python', 0);
        expect(findBackendPython({ env: environment({ python3: 0 }), checkout })).toBe(venv);
    });

    test('a checkout without a venv: on to PATH', () => {
        expect(findBackendPython({ env: environment({ python3: 0 }), checkout: folder() })).toBe('python3');
    });

    test('python3 on PATH only if it imports the backend, else python', () => {
        expect(findBackendPython({ env: environment({ python3: 1, python: 0 }), checkout: undefined })).toBe('python');
    });

    test("then the extension's pointer file, if its interpreter exists", () => {
        const python = executable(folder(), 'python', 0);
        const env = environment({ python3: 1 }, { python, version: '0.1.0' });
        expect(findBackendPython({ env, checkout: undefined })).toBe(python);
        const gone = environment({}, { python: join(folder(), 'removed', 'python') });
        expect(findBackendPython({ env: gone, checkout: undefined })).toBeUndefined();
    });

    test('a pointer file that is not JSON, or names no interpreter, counts as none', () => {
        const env = environment();
        mkdirSync(join(env.XDG_DATA_HOME!, 'chainlab'), { recursive: true });
        writeFileSync(pointerFile(env), '{"python": ');
        expect(findBackendPython({ env, checkout: undefined })).toBeUndefined();
        expect(findBackendPython({ env: environment({}, { python: 3 }), checkout: undefined })).toBeUndefined();
    });

    test('nowhere: undefined', () => {
        expect(findBackendPython({ env: environment({ python3: 1, python: 1 }), checkout: undefined })).toBeUndefined();
    });
});

describe('pointerFile', () => {
    test('under $XDG_DATA_HOME, else ~/.local/share', () => {
        expect(pointerFile({ XDG_DATA_HOME: '/data', HOME: '/home/u' })).toBe('/data/chainlab/backend.json');
        expect(pointerFile({ HOME: '/home/u' })).toBe('/home/u/.local/share/chainlab/backend.json');
    });
});

describe('checkoutRoot', () => {
    test('found upwards from the sources, none outside a checkout', () => {
        expect(checkoutRoot(__dirname)).toBe(join(__dirname, '..', '..', '..'));
        expect(checkoutRoot(folder())).toBeUndefined();
    });
});
