import { defineConfig } from 'vitest/config';

// A real Eclipse Theia (browser application) with the packaged extension, driven through Debian's chromium.
export default defineConfig({
    test: {
        root: __dirname,
        include: ['**/*.e2e.test.ts'],
        exclude: ['**/node_modules/**'],
        testTimeout: 180_000,
        hookTimeout: 240_000,
        pool: 'forks',
        poolOptions: { forks: { maxForks: 1, minForks: 1 } },
    },
});
