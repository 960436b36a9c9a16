/**
 * The language server's start-up settings: the parser skips chevrotain's grammar self-checks (ambiguities,
 * left recursion), which are for whoever changes the grammar (the tests and the CLI still run them) and cost
 * the server's start 130-300 ms before it could answer anything.
 */
import type { LanguageMetaData, Module } from 'langium';
import type { LangiumServices, PartialLangiumServices } from 'langium/lsp';
import { ChainLanguageMetaData } from '../generated/module.js';

export const ServerStartModule: Module<LangiumServices, PartialLangiumServices> = {
    LanguageMetaData: (): LanguageMetaData => ({ ...ChainLanguageMetaData, mode: 'production' }),
};
