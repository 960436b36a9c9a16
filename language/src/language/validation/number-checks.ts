/**
 * Whole numbers written in the model (INT tokens: image sizes, core counts and
 * numbers, threads, iterations, halos, misses, ports) must be exact: a literal
 * above 2^53 - 1 is rounded by JavaScript, and one of 309 digits or more
 * becomes Infinity, which the IR (JSON) cannot carry.
 */
import type { AstNode, ValidationAcceptor, ValidationChecks } from 'langium';
import type { ChainAstType } from '../../generated/ast.js';
import { Codes } from './diagnostic-codes.js';

function checkWholeNumbers(node: AstNode, accept: ValidationAcceptor): void {
    for (const [property, value] of Object.entries(node)) {
        if (typeof value === 'number' && !Number.isSafeInteger(value) && !property.startsWith('$')) {
            accept('error', `Number too large: whole numbers go up to 2^53 - 1 (${Number.MAX_SAFE_INTEGER}).`, {
                node, property: property as never, data: { code: Codes.badQuantity },
            });
        }
    }
}

export const numberChecks: ValidationChecks<ChainAstType> = {
    AstNode: checkWholeNumbers,
};
