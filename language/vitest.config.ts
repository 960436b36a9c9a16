import { defineConfig } from 'vitest/config';

export default defineConfig({
    test: {
        include: ['test/**/*.test.ts'],
        testTimeout: 30_000,
        // Two cores: a small fork pool keeps the language tests fast without starving other suites.
        pool: 'forks',
        poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    },
});
