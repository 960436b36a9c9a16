/**
 * Whole numbers written in the model (INT tokens) must be exact: a literal
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
                node,
                property,
                data: { code: Codes.badQuantity },
            });
        }
    }
}

/**
 * The node types with an INT property in chain.langium (`=INT`). Listed rather than checking every
 * node: a check on 'AstNode' would run on each of the ~40,000 nodes of a 2,000-box chain.
 */
export const numberChecks: ValidationChecks<ChainAstType> = {
    ImageType: checkWholeNumbers,
    CoresSetting: checkWholeNumbers,
    Depends: checkWholeNumbers,
    ThreadsOption: checkWholeNumbers,
    IterationsSetting: checkWholeNumbers,
    CoreRange: checkWholeNumbers,
    BudgetValue: checkWholeNumbers,
    TargetSetting: checkWholeNumbers,
};
