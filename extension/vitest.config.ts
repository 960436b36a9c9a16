import { defineConfig } from 'vitest/config';

// The extension's plot data and the requests it sends, against the real language server, backend and CLI.
export default defineConfig({
    test: {
        include: ['test/**/*.test.ts'],
        testTimeout: 120_000,
    },
});
