// ESLint 9 flat config for every TypeScript and JavaScript source of the repository (run by tests/lint.test.ts).
// TypeScript files are linted with type information (tsconfig.eslint.json and diagram/tsconfig.eslint.json: sources
// and tests in one program each, ~15 s of CPU for the whole tree), plain .mjs/.cjs/.js files without.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
    {
        ignores: [
            '**/node_modules/**',
            '**/out/**',
            '**/dist/**',
            '**/.tmp/**',
            'language/src/generated/**',
            'contract/src/generated/**',
            'backend/**',
            'runtime-c/**',
            'samples/**',
            'test-results/**',
            'chainlab-runs/**',
            'runs/**',
            // what `theia build` generates
            'tests/theia/lib/**',
            'tests/theia/src-gen/**',
            'tests/theia/*esbuild*.mjs',
        ],
    },
    js.configs.recommended,
    ...tseslint.configs.recommendedTypeChecked,
    {
        languageOptions: {
            ecmaVersion: 2022,
            sourceType: 'module',
            globals: { ...globals.node },
            parserOptions: {
                project: ['./tsconfig.eslint.json', './diagram/tsconfig.eslint.json'],
                tsconfigRootDir: import.meta.dirname,
            },
        },
        linterOptions: { reportUnusedDisableDirectives: 'error' },
        rules: {
            eqeqeq: ['error', 'always', { null: 'ignore' }],
            'no-unused-vars': 'off', // the TypeScript rule below, for .mjs too
            '@typescript-eslint/no-unused-vars': [
                'error',
                {
                    argsIgnorePattern: '^_',
                    varsIgnorePattern: '^_',
                    caughtErrorsIgnorePattern: '^_',
                    ignoreRestSiblings: true,
                },
            ],
            '@typescript-eslint/consistent-type-imports': [
                'error',
                { prefer: 'type-imports', fixStyle: 'inline-type-imports' },
            ],
            '@typescript-eslint/no-floating-promises': 'error',
            // Prettier (printWidth 120) keeps code within 120 columns except strings it cannot break; it never wraps
            // comments, so comment lines are held to 120 here (code: only a backstop for what Prettier leaves).
            'max-len': ['error', { code: 1000, comments: 120, ignoreUrls: true }],
        },
    },
    {
        // The webview code runs in a browser.
        files: ['diagram/src/**', 'extension/webview/**'],
        languageOptions: { globals: { ...globals.browser } },
    },
    {
        // Tests read the JSON that processes and servers print and assert on its shape: values typed `any` are the
        // point there, so the no-unsafe-* family is off for tests (it stays on for every source folder).
        files: ['**/test/**', 'tests/**'],
        rules: {
            '@typescript-eslint/no-unsafe-argument': 'off',
            '@typescript-eslint/no-unsafe-assignment': 'off',
            '@typescript-eslint/no-unsafe-call': 'off',
            '@typescript-eslint/no-unsafe-member-access': 'off',
            '@typescript-eslint/no-unsafe-return': 'off',
        },
    },
    {
        // Plain JavaScript (build scripts, installer, test runner, benchmarks): no type information.
        files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
        ...tseslint.configs.disableTypeChecked,
    },
);
