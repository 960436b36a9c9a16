/**
 * The layering of the TypeScript tree, checked by tests/lint.test.ts:
 *   depcruise --config .dependency-cruiser.cjs language/src diagram/src extension/src [contract/src]
 *
 *   contract/ (@chainlab/contract: JSON Schemas + generated TS)   ← imported by name from every package
 *   language/src/generated   Langium's AST                        ← dsl, ir, diagram-server, cli, server
 *   language/src/dsl         the pure language                    ← ir, diagram-server, cli, server
 *   language/src/ir          IR export                            ← diagram-server, cli, server
 *   language/src/backend-rpc JSON-RPC client of the backend       ← cli, server
 *   language/src/diagram-server  diagram generation               ← server
 *   language/src/cli         the CLI                              ← nobody (entry point)
 *   language/src/server      the language server: composition root, the only place that imports everything
 *   diagram/src, extension/src: npm packages and @chainlab/contract, no file of language/ (nor of each other)
 *
 * `contract/` does not exist in every branch yet: the rules name it by path (^contract/) so that they hold as soon
 * as it appears; `@chainlab/contract` resolves through the workspace link to that path.
 */
const LANGUAGE = '^language/src/';
const OTHER_PACKAGES = '^(diagram|extension)/';

/** Packages as dependency-cruiser classifies them (declared or not). */
const NPM = ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-bundled', 'npm-no-pkg', 'npm-unknown'];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
    forbidden: [
        {
            name: 'no-circular',
            severity: 'error',
            comment:
                'No import cycles at run time. A cycle through a type-only import is allowed: the dependency-injection ' +
                "pattern of Langium and Sprotty (a module file declares the services' type, the services it wires " +
                'import that type) has them by design, and they vanish in the JavaScript.',
            from: {},
            to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
        },
        {
            name: 'no-orphans',
            severity: 'error',
            comment: 'A source file nothing imports and that imports nothing is dead (type declarations excepted).',
            from: {
                orphan: true,
                path: '^(language|diagram|extension|contract)/src/',
                pathNot: ['\\.d\\.ts$', '^language/src/generated/', '^contract/src/generated/'],
            },
            to: {},
        },
        {
            name: 'not-to-unresolvable',
            severity: 'error',
            comment: 'Every import resolves to a file or an installed package.',
            from: {},
            to: { couldNotResolve: true },
        },
        {
            name: 'no-undeclared-packages',
            severity: 'error',
            comment: "A package imported from a source file is declared in its package's package.json.",
            from: {},
            to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
        },
        {
            name: 'generated-imports-only-langium',
            severity: 'error',
            comment: "Langium's generated AST depends on nothing of ours.",
            from: { path: '^language/src/generated/' },
            to: { path: '^(language|diagram|extension|contract)/', pathNot: '^language/src/generated/' },
        },
        {
            name: 'dsl-is-the-pure-language',
            severity: 'error',
            comment:
                'language/src/dsl (grammar, validation, LSP features) imports only itself, the generated AST and the ' +
                "contract's constants (rules the backend applies too, e.g. the pmf sum tolerance).",
            from: { path: '^language/src/dsl/' },
            to: {
                path: '^(language|diagram|extension|contract|backend)/',
                pathNot: ['^language/src/(dsl|generated)/', '^contract/(src|out)/'],
            },
        },
        {
            name: 'dsl-packages',
            severity: 'error',
            comment:
                'language/src/dsl uses only Langium, its parser chevrotain (the syntax error messages) and the language ' +
                "server protocol (and Node's own modules).",
            from: { path: '^language/src/dsl/' },
            to: {
                dependencyTypes: NPM,
                pathNot: '^(node_modules/(langium|chevrotain|vscode-languageserver[^/]*)/|contract/)',
            },
        },
        {
            name: 'ir-imports-the-language',
            severity: 'error',
            comment:
                'The IR export reads the validated model: it may import dsl, generated and the contract (its IR schema).',
            from: { path: '^language/src/ir/' },
            to: {
                path: '^(language|diagram|extension|backend)/',
                pathNot: '^language/src/(ir|dsl|generated)/',
            },
        },
        {
            name: 'backend-rpc-stands-alone',
            severity: 'error',
            comment: 'The JSON-RPC client of the backend knows nothing of the language (the contract is allowed).',
            from: { path: '^language/src/backend-rpc/' },
            to: { path: '^(language|diagram|extension)/', pathNot: '^language/src/backend-rpc/' },
        },
        {
            name: 'diagram-server-layer',
            severity: 'error',
            comment:
                'Diagram generation may import dsl, ir, generated and the contract: not the server, the CLI or the backend client.',
            from: { path: '^language/src/diagram-server/' },
            to: { path: '^language/src/(server|cli|backend-rpc)/' },
        },
        {
            name: 'cli-layer',
            severity: 'error',
            comment:
                'The CLI may import dsl, ir, generated, backend-rpc and the contract: not the language server nor diagram generation.',
            from: { path: '^language/src/cli/' },
            to: { path: '^language/src/(server|diagram-server)/' },
        },
        {
            name: 'server-is-the-composition-root',
            severity: 'error',
            comment:
                'Nothing imports the language server (language/src/server): it is the only place that wires everything.',
            from: { path: LANGUAGE, pathNot: '^language/src/server/' },
            to: { path: '^language/src/server/' },
        },
        {
            name: 'language-imports-no-ui',
            severity: 'error',
            comment: 'The language never imports the webview or the extension.',
            from: { path: '^language/' },
            to: { path: OTHER_PACKAGES },
        },
        {
            name: 'diagram-imports-no-language',
            severity: 'error',
            comment: 'The webview talks to the language server through the contract, not through its sources.',
            from: { path: '^diagram/src/' },
            to: { path: '^(language|extension)/' },
        },
        {
            name: 'extension-imports-no-language',
            severity: 'error',
            comment:
                "The extension talks to the language server through the contract; it bundles the diagram's build, not its sources.",
            from: { path: '^extension/src/' },
            to: { path: '^(language|diagram)/' },
        },
        {
            name: 'contract-is-the-bottom',
            severity: 'error',
            comment: 'The contract package imports none of its users.',
            from: { path: '^contract/' },
            to: { path: '^(language|diagram|extension|backend)/' },
        },
        {
            name: 'contract-by-package-name',
            severity: 'error',
            comment:
                'Other packages import the contract as @chainlab/contract, never by a relative path into contract/.',
            from: { path: '^(language|diagram|extension)/' },
            to: { path: '^contract/', dependencyTypes: ['local'] },
        },
        {
            name: 'src-imports-no-tests',
            severity: 'error',
            comment: 'Tests may import what they test; sources never import tests.',
            from: { path: '^(language|diagram|extension|contract)/src/' },
            to: { path: '^((language|diagram|extension|contract)/test/|tests/)' },
        },
    ],
    options: {
        doNotFollow: { path: 'node_modules' },
        exclude: { path: ['(^|/)(out|dist)/'] },
        // TypeScript's type-only imports count: a layer that needs another's types depends on it.
        tsPreCompilationDeps: true,
        // Each package's package.json (and the root's) declares what its files may import.
        combinedDependencies: true,
        tsConfig: { fileName: 'tsconfig.eslint.json' },
        enhancedResolveOptions: {
            exportsFields: ['exports'],
            conditionNames: ['import', 'require', 'node', 'default', 'types'],
            extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
            mainFields: ['module', 'main', 'types', 'typings'],
        },
        skipAnalysisNotInRules: true,
    },
};
