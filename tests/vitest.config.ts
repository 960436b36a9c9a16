import { defineConfig } from 'vitest/config';

// Cross-cutting tests: the CLI as a real process, samples, golden IR, dependency hygiene, lint, format and layering.
export default defineConfig({
    test: {
        root: __dirname,
        include: ['**/*.test.ts'],
        exclude: ['**/node_modules/**', 'vscode/**', 'theia/**'], // the code-server and Theia suites have their own
        testTimeout: 120_000,
        pool: 'forks',
        poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    },
});
