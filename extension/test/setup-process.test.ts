/**
 * A set-up step as a real process: pip failing offline names the missing package and says what to set; a
 * cancelled step stops its child; a command that is not there says so.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { SetupError } from '../src/setup-python';
import { runSetupStep, type StepToken } from '../src/setup-process';

const empty = mkdtempSync(join(tmpdir(), 'chainlab-wheelhouse-'));
afterAll(() => rmSync(empty, { recursive: true, force: true }));

/** A token whose cancel() fires its listeners, as VS Code's does. */
function token(): StepToken & { cancel(): void } {
    const listeners: (() => void)[] = [];
    const t = {
        isCancellationRequested: false,
        onCancellationRequested: (listener: () => void) => {
            listeners.push(listener);
            return { dispose: () => {} };
        },
        cancel: () => {
            t.isCancellationRequested = true;
            listeners.forEach(l => l());
        },
    };
    return t;
}

async function failure(promise: Promise<void>): Promise<SetupError> {
    const error = await promise.then(
        () => undefined,
        (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SetupError);
    return error as SetupError;
}

describe('runSetupStep', () => {
    test('pip without the package in the wheelhouse: the line saying why, the hint, the settings', async () => {
        const log: string[] = [];
        const args = ['-m', 'pip', 'install', '--disable-pip-version-check', '--no-index', '--find-links', empty];
        const error = await failure(
            runSetupStep('python3', [...args, 'chainlab-not-a-package'], {
                token: token(),
                log: line => log.push(line),
                hint: 'Set chainlab.backend.wheelhouse.',
            }),
        );
        expect(error.message).toMatch(/^'python3 -m pip install…' failed \(exit 1\): ERROR: .*chainlab-not-a-package/);
        expect(error.message).toMatch(/\. Set chainlab\.backend\.wheelhouse\.$/);
        expect(error.setting).toBe('chainlab.backend');
        expect(log[0]).toBe(`$ python3 ${args.join(' ')} chainlab-not-a-package`);
    });

    test('a command that is not installed', async () => {
        const error = await failure(
            runSetupStep('no-such-python3', ['-m', 'venv', 'x'], { token: token(), log: () => {} }),
        );
        expect(error.message).toMatch(/^no-such-python3 could not be started: .*ENOENT/);
        expect(error.setting).toBeUndefined();
    });

    test('cancelled: the child is stopped and it says it starts again', async () => {
        const t = token();
        let pid: number | undefined;
        const step = runSetupStep('sleep', ['60'], {
            token: t,
            log: () => {},
            onChild: child => (pid ??= child?.pid),
        });
        t.cancel();
        const error = await failure(step);
        expect(error.message).toBe('cancelled; it starts again on next use');
        expect(() => process.kill(pid!, 0)).toThrow();
    });
});
