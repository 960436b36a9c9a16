/**
 * The chainlab contract: the types and constants generated from contract/schemas (src/generated, made by
 * generate.mjs), for the language, the diagram webview and the extension.
 */
export type * from './generated/types.js';
export type * from './generated/methods.js';
export * from './generated/constants.js';
export { SCHEMA_BASE, SCHEMAS } from './generated/schemas.js';
export { backendPointerPath } from './backend-pointer.js';
export { lensCommands, type LensCommand, type LensedKind } from './code-lenses.js';
export * from './number-format.js';
