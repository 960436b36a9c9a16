/**
 * Number tokens inside a decimal keep their digits. Langium turns an INT token into a JavaScript number before a
 * datatype rule (Decimal) joins the tokens' texts, so a 401-digit integer became 'Infinity' and a 20-digit one lost
 * its last digits before the exact decimal arithmetic (units.ts) ever saw it. INTs assigned on their own (cores,
 * image sizes) stay numbers.
 */
import { AstUtils, DefaultValueConverter, GrammarAST, GrammarUtils, type CstNode, type ValueType } from 'langium';

export class ChainValueConverter extends DefaultValueConverter {
    protected override runConverter(rule: GrammarAST.AbstractRule, input: string, cstNode: CstNode): ValueType {
        if (rule.name === 'INT') {
            const owner = AstUtils.getContainerOfType(cstNode.grammarSource, GrammarAST.isParserRule);
            if (owner && GrammarUtils.isDataTypeRule(owner)) return input;
        }
        return super.runConverter(rule, input, cstNode);
    }
}
