/**
 * Which Python interpreter runs the backend. The CLI and the language server are installed on their own (an npm
 * package, the VS Code extension), so the backend can be in several places; the first that has it wins:
 *   1. $CHAINLAB_PYTHON, as it is (the extension sets it; a wrong one is reported when it fails to start);
 *   2. backend/.venv of the chainlab checkout this code runs from (development: `npm run setup` made it);
 *   3. `python3`, then `python` on PATH, if it can import the backend (`pip install chainlab-backend`);
 *   4. the private environment the VS Code extension set up, named by its pointer file
 *      `${XDG_DATA_HOME:-~/.local/share}/chainlab/backend.json` ({"python": "/abs/venv/bin/python", ...}).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { backendPointerPath, type BackendPointer } from '@chainlab/contract';

/** What to do when none is found, without assuming a checkout of the repository. */
export const NO_BACKEND_MESSAGE =
    'no chainlab backend found: install it (python3 -m pip install chainlab-backend, or the chainlab_backend wheel), ' +
    'set CHAINLAB_PYTHON to an interpreter that has it, or open a .chain file once in VS Code with the chainlab extension';

/** Where to look; tests replace the parts (the process's environment, the checkout). */
export interface BackendSearch {
    env?: NodeJS.ProcessEnv;
    /** The chainlab checkout around this code, if any (undefined: an installed package). */
    checkout?: string;
}

/** This module's folder, both as ESM (the CLI) and inside the CommonJS bundle of the language server. */
function moduleDir(): string {
    try {
        return dirname(fileURLToPath(import.meta.url));
    } catch {
        return __dirname;
    }
}

/** The chainlab checkout that holds this code (found upwards: out/ and dist/ sit at different depths), if any. */
export function checkoutRoot(from = moduleDir()): string | undefined {
    for (let dir = from; ; dir = dirname(dir)) {
        if (existsSync(join(dir, 'backend', 'pyproject.toml')) && existsSync(join(dir, 'language', 'package.json')))
            return dir;
        if (dirname(dir) === dir) return undefined;
    }
}

/** Per PATH and command: does that interpreter import the backend? Asked once per process (it takes ~0.5 s). */
const importsBackend = new Map<string, boolean>();

function onPathWithBackend(env: NodeJS.ProcessEnv): string | undefined {
    for (const command of ['python3', 'python']) {
        const key = `${env.PATH ?? ''}\0${command}`;
        if (!importsBackend.has(key)) {
            const probe = spawnSync(command, ['-c', 'import chainlab.rpc'], { env, stdio: 'ignore', timeout: 30_000 });
            importsBackend.set(key, probe.status === 0);
        }
        if (importsBackend.get(key)) return command;
    }
    return undefined;
}

/** The pointer file the VS Code extension writes after it set up its own environment of the backend. */
export function pointerFile(env: NodeJS.ProcessEnv = process.env): string {
    return backendPointerPath(env, env.HOME || homedir());
}

/** The interpreter named by the pointer file, if the file is readable and that interpreter exists. */
function fromPointer(env: NodeJS.ProcessEnv): string | undefined {
    try {
        const { python } = JSON.parse(readFileSync(pointerFile(env), 'utf-8')) as Partial<BackendPointer>;
        return typeof python === 'string' && isAbsolute(python) && existsSync(python) ? python : undefined;
    } catch {
        return undefined; // none, or half-written: as if there were none
    }
}

/** The backend's interpreter (a path or a command on PATH), or undefined when there is none anywhere. */
export function findBackendPython(search: BackendSearch = {}): string | undefined {
    const env = search.env ?? process.env;
    if (env.CHAINLAB_PYTHON) return env.CHAINLAB_PYTHON;
    const checkout = 'checkout' in search ? search.checkout : checkoutRoot();
    const venv = checkout && join(checkout, 'backend', '.venv', 'bin', 'python');
    if (venv && existsSync(venv)) return venv;
    return onPathWithBackend(env) ?? fromPointer(env);
}
