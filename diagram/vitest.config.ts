import { defineConfig } from 'vitest/config';

// The webview in a real browser (Debian's chromium through playwright-core), fed by the real language server.
export default defineConfig({
    test: {
        include: ['test/**/*.test.ts'],
        testTimeout: 60_000,
        hookTimeout: 120_000,
        pool: 'forks',
        poolOptions: { forks: { maxForks: 1, minForks: 1 } },
    },
});
