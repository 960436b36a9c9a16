/**
 * What syntax messages need to know about the grammar: how to spell a token for a person (keywords quoted,
 * `ID` → "a name"), which keywords only stand for names (`s`, `x`, `in` … are names too, so "a name"
 * covers them), and which tokens may start an element (FIRST sets), e.g. what may follow inside a box.
 */
import { AstUtils, GrammarAST, isAstNode, type AstNode, type Grammar } from 'langium';

/** How terminals read in a message. */
const TERMINALS: Readonly<Record<string, string>> = {
    ID: 'a name',
    NUMBER: 'a number',
    INT: 'a whole number',
    STRING: 'a quoted string',
};

/** The grammar rule that lists the keywords a name may be spelt as (`s`, `x`, `in` …). */
export const NAME_KEYWORD_RULE = 'NameKeyword';

/** Lists longer than this end in "…": a message names a few choices, not the grammar. */
export const MAX_LISTED = 5;

export class SyntaxVocabulary {
    private readonly terminals: ReadonlySet<string>;
    /** Keywords the `Name` rule accepts: where a name may stand, they are covered by "a name". */
    readonly nameKeywords: ReadonlySet<string>;
    private readonly rules: ReadonlyMap<string, GrammarAST.AbstractRule>;
    private readonly firstSets = new Map<GrammarAST.AbstractElement, ReadonlySet<string>>();

    constructor(grammar: Grammar) {
        this.terminals = new Set(grammar.rules.filter(GrammarAST.isTerminalRule).map(r => r.name));
        this.rules = new Map(grammar.rules.map(r => [r.name, r]));
        const name = this.rules.get('Name');
        this.nameKeywords = new Set(
            name && GrammarAST.isParserRule(name)
                ? [...this.first(name.definition)].filter(t => !this.terminals.has(t))
                : [],
        );
    }

    rule(name: string): GrammarAST.AbstractRule | undefined {
        return this.rules.get(name);
    }

    /** `'{'` for a keyword, "a name" for ID, … */
    spell(tokenName: string): string {
        if (this.terminals.has(tokenName)) return TERMINALS[tokenName] ?? `a ${tokenName}`;
        return `'${tokenName}'`;
    }

    /**
     * Token names as a readable choice: duplicates and name keywords (when a name is expected anyway) dropped,
     * a whole number subsumed by a number, at most MAX_LISTED: `a name, 'schedule' or '}'`.
     */
    choice(tokenNames: Iterable<string>, last?: string): string {
        const names = new Set(tokenNames);
        if (names.has('ID')) for (const keyword of this.nameKeywords) names.delete(keyword);
        if (names.has('NUMBER')) names.delete('INT');
        if (last) names.delete(last);
        const spelled = [...names].map(n => this.spell(n));
        const tail = last ? [this.spell(last)] : [];
        if (spelled.length + tail.length <= MAX_LISTED) return joinOr([...spelled, ...tail]);
        return `${spelled.slice(0, MAX_LISTED - 1 - tail.length).join(', ')}, …${tail.length > 0 ? ` or ${tail[0]}` : ''}`;
    }

    /** The tokens that may start `element`. */
    first(element: GrammarAST.AbstractElement): ReadonlySet<string> {
        let result = this.firstSets.get(element);
        if (result) return result;
        const tokens = new Set<string>();
        this.firstSets.set(element, tokens); // left recursion ends here (the grammar has none, but be safe)
        if (GrammarAST.isKeyword(element)) tokens.add(element.value);
        else if (GrammarAST.isAssignment(element)) this.addAll(tokens, this.first(element.terminal));
        else if (GrammarAST.isCrossReference(element))
            this.addAll(tokens, element.terminal ? this.first(element.terminal) : ['ID']);
        else if (GrammarAST.isRuleCall(element)) {
            const rule = element.rule.ref;
            if (GrammarAST.isTerminalRule(rule)) tokens.add(rule.name);
            else if (GrammarAST.isParserRule(rule)) this.addAll(tokens, this.first(rule.definition));
        } else if (GrammarAST.isAlternatives(element) || GrammarAST.isUnorderedGroup(element)) {
            for (const alternative of element.elements) this.addAll(tokens, this.first(alternative));
        } else if (GrammarAST.isGroup(element)) {
            for (const part of element.elements) {
                this.addAll(tokens, this.first(part));
                if (!isOptional(part)) break;
            }
        }
        result = tokens;
        this.firstSets.set(element, result);
        return result;
    }

    /**
     * What may come instead of `closing` where it was expected in `ruleName`, given the node being built: the
     * first tokens of the loops and optional parts just before it (`box A { members+=BoxMember* '}'` → the
     * members' keywords), and what may still follow the required part before them (the settings of a
     * throttle's budget, the ',' after a pmf entry).
     */
    beforeClosing(ruleName: string, closing: string, node?: AstNode): Set<string> {
        const tokens = new Set<string>();
        const rule = this.rules.get(ruleName);
        if (!rule || !GrammarAST.isParserRule(rule) || !GrammarAST.isGroup(rule.definition)) return tokens;
        const parts = rule.definition.elements;
        const index = parts.map(p => GrammarAST.isKeyword(p) && p.value === closing).lastIndexOf(true);
        this.collectTail(parts.slice(0, Math.max(index, 0)), node, tokens);
        return tokens;
    }

    /** The tokens that may follow `parts`, parsed into `node` (walking back from the last part). */
    private collectTail(
        parts: readonly GrammarAST.AbstractElement[],
        node: AstNode | undefined,
        tokens: Set<string>,
    ): void {
        for (let i = parts.length - 1; i >= 0; i--) {
            const part = parts[i];
            if (part.cardinality === '*' || (part.cardinality === '?' && !(node && entered(part, node)))) {
                this.addAll(tokens, this.first(part)); // another iteration, or the optional part, may come
                continue;
            }
            this.collectEnd(part, node, tokens); // required (or entered): what may still extend its end
            return;
        }
    }

    private collectEnd(part: GrammarAST.AbstractElement, node: AstNode | undefined, tokens: Set<string>): void {
        if (GrammarAST.isGroup(part)) {
            this.collectTail(part.elements, node, tokens);
        } else if (GrammarAST.isAssignment(part) && node) {
            const value: unknown = (node as unknown as Record<string, unknown>)[part.feature];
            const last: unknown = Array.isArray(value) ? (value as unknown[]).at(-1) : value;
            if (!isAstNode(last)) return;
            const rule = this.rules.get(last.$type);
            if (rule && GrammarAST.isParserRule(rule) && GrammarAST.isGroup(rule.definition))
                this.collectTail(rule.definition.elements, last, tokens);
        }
    }

    /** The first keyword of a rule (`box` for Box, `pmf` for PmfEtp): how a message names what is open. */
    leadingKeyword(ruleName: string): string | undefined {
        const rule = this.rules.get(ruleName);
        if (!rule || !GrammarAST.isParserRule(rule)) return undefined;
        return [...this.first(rule.definition)].find(t => !this.terminals.has(t));
    }

    private addAll(target: Set<string>, source: Iterable<string>): void {
        for (const token of source) target.add(token);
    }
}

function isOptional(element: GrammarAST.AbstractElement): boolean {
    return element.cardinality === '?' || element.cardinality === '*';
}

/** Whether the parser went into an optional part: a property it assigns is set on the node. */
function entered(part: GrammarAST.AbstractElement, node: AstNode): boolean {
    const assignments = GrammarAST.isAssignment(part)
        ? [part]
        : AstUtils.streamAllContents(part).filter(GrammarAST.isAssignment).toArray();
    return assignments.some(a => {
        const value = (node as unknown as Record<string, unknown>)[a.feature];
        return Array.isArray(value) ? value.length > 0 : value !== undefined;
    });
}

/** `a`, `a or b`, `a, b or c`. */
export function joinOr(items: readonly string[]): string {
    return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}
