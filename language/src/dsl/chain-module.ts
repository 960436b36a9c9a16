/**
 * Dependency injection for the .chain language: the generated services plus
 * readable syntax errors, scoping, validation, hover, formatting and quick fixes.
 */
import { ChainValueConverter } from './chain-value-converter.js';
import { inject, type Module } from 'langium';
import {
    createDefaultModule,
    createDefaultSharedModule,
    type DefaultSharedModuleContext,
    type LangiumServices,
    type LangiumSharedServices,
    type PartialLangiumServices,
} from 'langium/lsp';
import { ChainGeneratedModule, ChainGeneratedSharedModule } from '../generated/module.js';
import { ChainDocumentValidator, ChainLinker } from './chain-linker.js';
import { ChainScopeComputation, ChainScopeProvider } from './chain-scope.js';
import { createChainCompletionParser, createChainParser } from './chain-parser.js';
import { LeanTokenLexer } from './lean-tokens.js';
import { ChainLexerErrorMessageProvider, ChainParserErrorMessageProvider } from './syntax-error-messages.js';
import { ChainValidator, registerValidationChecks } from './validation/chain-validator.js';
import { ChainHoverProvider } from './lsp/chain-hover.js';
import { ChainFormatter } from './lsp/chain-formatter.js';
import { ChainCodeActionProvider } from './lsp/chain-code-actions.js';
import { ChainCompletionProvider } from './lsp/chain-completion.js';
import { ChainDocumentSymbolProvider } from './lsp/chain-symbols.js';
import { ChainRenameProvider } from './lsp/chain-rename.js';
import { ChainFoldingRangeProvider } from './lsp/chain-folding.js';
import { ChainCodeLensProvider } from './lsp/chain-code-lens.js';
import { LeanAstNodeDescriptionProvider } from './lean-descriptions.js';

export type ChainAddedServices = {
    validation: {
        ChainValidator: ChainValidator;
    };
};

export type ChainServices = LangiumServices & ChainAddedServices;

export const ChainModule: Module<ChainServices, PartialLangiumServices & ChainAddedServices> = {
    parser: {
        Lexer: services => new LeanTokenLexer(services),
        LangiumParser: services => createChainParser(services),
        CompletionParser: services => createChainCompletionParser(services),
        ParserErrorMessageProvider: services => new ChainParserErrorMessageProvider(services),
        LexerErrorMessageProvider: () => new ChainLexerErrorMessageProvider(),
        ValueConverter: () => new ChainValueConverter(),
    },
    references: {
        ScopeComputation: services => new ChainScopeComputation(services),
        ScopeProvider: services => new ChainScopeProvider(services),
        Linker: services => new ChainLinker(services),
    },
    workspace: {
        AstNodeDescriptionProvider: services => new LeanAstNodeDescriptionProvider(services),
    },
    validation: {
        ChainValidator: () => new ChainValidator(),
        DocumentValidator: services => new ChainDocumentValidator(services),
    },
    lsp: {
        HoverProvider: services => new ChainHoverProvider(services),
        Formatter: () => new ChainFormatter(),
        CodeActionProvider: () => new ChainCodeActionProvider(),
        CompletionProvider: services => new ChainCompletionProvider(services),
        DocumentSymbolProvider: services => new ChainDocumentSymbolProvider(services),
        RenameProvider: services => new ChainRenameProvider(services),
        FoldingRangeProvider: services => new ChainFoldingRangeProvider(services),
        CodeLensProvider: () => new ChainCodeLensProvider(),
    },
};

/** Modules added on top of the language, e.g. the diagram services of the language server. */
export interface ChainExtensions {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    shared?: Array<Module<any, any>>;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    language?: Array<Module<any, any>>;
}

export function createChainServices(
    context: DefaultSharedModuleContext,
    extensions: ChainExtensions = {},
): {
    shared: LangiumSharedServices;
    Chain: ChainServices;
} {
    const shared = inject(
        createDefaultSharedModule(context),
        ChainGeneratedSharedModule,
        ...((extensions.shared ?? []) as [Module<LangiumSharedServices>]),
    );
    const Chain = inject(
        createDefaultModule({ shared }),
        ChainGeneratedModule,
        ChainModule,
        ...((extensions.language ?? []) as [Module<ChainServices>]),
    );
    shared.ServiceRegistry.register(Chain);
    registerValidationChecks(Chain);
    if (!context.connection) {
        // Without a language client nobody sends the configuration: build with defaults (nothing to wait for:
        // with no client and no fetch, initialized() only marks the provider ready).
        void shared.workspace.ConfigurationProvider.initialized({});
    }
    return { shared, Chain };
}
