import { defineConfig } from 'vitest/config';

// The extension's pure parts (measurement → ETP text, plot data), checked against the real language CLI.
export default defineConfig({
    test: {
        include: ['test/**/*.test.ts'],
        testTimeout: 60_000,
    },
});
