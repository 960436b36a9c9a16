/** The CLI with a backend of another contract version: it says so and how to fix it, and exits non-zero. */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chainlab, repo, tempDir } from './cli-helpers.js';

/** The real backend, told at start that it speaks contract 0.9.0. */
function olderBackend(): string {
    const file = join(tempDir('chainlab-older'), 'backend');
    writeFileSync(
        file,
        `#!/bin/sh\nexec ${join(repo, 'backend', '.venv', 'bin', 'python')} -c "import chainlab.rpc.contract as c; ` +
            `c.CONTRACT_VERSION = '0.9.0'; from chainlab.rpc.server import main; main()"\n`,
    );
    chmodSync(file, 0o755);
    return file;
}

describe('contract handshake', () => {
    it('refuses a backend of another contract version with a clear message', async () => {
        const r = await chainlab(['analyze', 'samples/ptts/thesis-fig5-2.chain', '--ptts', 'Fig52'], {
            env: { CHAINLAB_PYTHON: olderBackend() },
        });
        expect(r.status).toBe(1);
        expect(r.stderr).toMatch(
            /^chainlab: error: chainlab backend speaks contract 0\.9\.0, this client \d+\.\d+\.\d+: install matching versions of the backend \(chainlab-backend\) and of the CLI or extension$/m,
        );
        expect(r.stdout).toBe('');
    });

    it('works with the backend it was set up with', async () => {
        const r = await chainlab(['analyze', 'samples/ptts/thesis-fig5-2.chain', '--ptts', 'Fig52', '--json']);
        expect(r.status).toBe(0);
        expect(JSON.parse(r.stdout).roots).toBe(203);
    });
});
