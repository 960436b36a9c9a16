/**
 * The Python that creates the backend's private environment: the newest python3.x ≥ 3.11 on PATH that has the
 * venv module. Each way of failing has its own message saying what to install or set, since the user of a .vsix
 * has no `npm run setup` to fall back on.
 */
import { spawnSync } from 'node:child_process';

/** The oldest Python the backend runs on (backend/pyproject.toml requires-python). */
export const MINIMUM_PYTHON = [3, 11] as const;

/** Interpreter names tried in this order: the newest first, then whatever `python3` is. */
const CANDIDATES = ['python3.14', 'python3.13', 'python3.12', 'python3.11', 'python3'];

/** Why no environment can be made, in words a user can act on. */
export class SetupError extends Error {
    constructor(
        message: string,
        /** The setting that would get past it, offered as a button. */
        readonly setting?: string,
    ) {
        super(message);
    }
}

interface Probe {
    command: string;
    version: [number, number];
    venv: boolean;
}

/** What `command` is: its version and whether it can make a venv with pip (undefined: not found or not Python). */
export function probePython(command: string, env: NodeJS.ProcessEnv = process.env): Probe | undefined {
    const script =
        'import sys, importlib.util as u; ' +
        "print(sys.version_info[0], sys.version_info[1], int(bool(u.find_spec('venv') and u.find_spec('ensurepip'))))";
    const result = spawnSync(command, ['-c', script], { encoding: 'utf-8', env, timeout: 20_000 });
    const match = /^(\d+) (\d+) ([01])\s*$/.exec(result.stdout ?? '');
    if (result.status !== 0 || !match) return undefined;
    return { command, version: [Number(match[1]), Number(match[2])], venv: match[3] === '1' };
}

const newEnough = (version: [number, number]) =>
    version[0] > MINIMUM_PYTHON[0] || (version[0] === MINIMUM_PYTHON[0] && version[1] >= MINIMUM_PYTHON[1]);

/** The interpreter to make the environment with, or a SetupError saying what is missing. */
export function findSetupPython(env: NodeJS.ProcessEnv = process.env): string {
    const found = CANDIDATES.map(command => probePython(command, env)).filter(p => p !== undefined);
    const usable = found.filter(p => newEnough(p.version));
    const withVenv = usable.find(p => p.venv);
    if (withVenv) return withVenv.command;
    const minimum = MINIMUM_PYTHON.join('.');
    if (usable.length > 0) {
        const [major, minor] = usable[0].version;
        throw new SetupError(
            `${usable[0].command} (Python ${major}.${minor}) cannot make a virtual environment: its venv module is ` +
                `missing. Install it (Debian/Ubuntu: sudo apt install python${major}.${minor}-venv) and try again.`,
        );
    }
    const old = found.length ? ` (found only Python ${found[0].version.join('.')})` : '';
    throw new SetupError(
        `chainlab's analysis backend needs Python ${minimum} or newer on PATH${old}. Install it (Debian/Ubuntu: ` +
            `sudo apt install python3 python3-venv), or set chainlab.python to an interpreter that has ` +
            'chainlab-backend installed.',
        'chainlab.python',
    );
}
