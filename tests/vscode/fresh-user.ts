/**
 * The folders of a user who has just installed the .vsix, for the fresh-install suites of VS Code and Theia: a home
 * outside this repository with an empty folder to open and a projects folder that holds a project already (so the
 * examples get a folder of their own there); nothing of this checkout's backend within reach, only the wheelhouse
 * scripts/setup.mjs fills (the extension's set-up needs no network with it).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { repo } from './code-server.js';

export const wheelhouse = join(repo, 'backend', 'wheelhouse');

export function freshUser(): { projects: string; empty: string } {
    const filled = existsSync(wheelhouse) && readdirSync(wheelhouse).some(f => f.startsWith('numpy-'));
    expect(filled, `${wheelhouse} has no wheels: run node scripts/setup.mjs`).toBe(true);
    delete process.env.CHAINLAB_PYTHON;
    const home = mkdtempSync(join(tmpdir(), 'chainlab-user-'));
    const projects = join(home, 'projects');
    mkdirSync(join(projects, 'other-project'), { recursive: true });
    const empty = join(home, 'empty');
    mkdirSync(empty);
    return { projects, empty };
}
