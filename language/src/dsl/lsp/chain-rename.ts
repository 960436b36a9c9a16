/**
 * Rename: Langium's default (the declaration and every reference in the
 * workspace), restricted to real declarations and checked: the new name must
 * be a valid name of the language and must not clash with a sibling
 * (element names share one namespace; ports per box, instances per chain,
 * components per ptts).
 */
import { DefaultRenameProvider, type LangiumServices } from 'langium/lsp';
import {
    AstUtils,
    CstUtils,
    GrammarAST,
    type AstNode,
    type CstNode,
    type Grammar,
    type LangiumDocument,
    type MaybePromise,
} from 'langium';
import {
    ResponseError,
    ErrorCodes,
    type Position,
    type PrepareRenameParams,
    type Range,
    type RenameParams,
    type WorkspaceEdit,
} from 'vscode-languageserver';
import { isKernel } from '../../generated/ast.js';
import { keepAlignment } from './neighbour-alignment.js';
import { NAME_KEYWORD_RULE } from '../syntax-vocabulary.js';

const NAME = /^[_a-zA-Z]\w*$/;

/** Keywords that cannot be names: every word keyword except those the `NameKeyword` rule lists. */
export function reservedKeywords(grammar: Grammar): Set<string> {
    const nameRule = grammar.rules.find(r => r.name === NAME_KEYWORD_RULE);
    const allowed = new Set(
        nameRule
            ? AstUtils.streamAllContents(nameRule)
                  .filter(GrammarAST.isKeyword)
                  .map(k => k.value)
                  .toArray()
            : [],
    );
    return new Set(
        AstUtils.streamAllContents(grammar)
            .filter(GrammarAST.isKeyword)
            .map(k => k.value)
            .filter(v => NAME.test(v) && !allowed.has(v))
            .toArray(),
    );
}

export class ChainRenameProvider extends DefaultRenameProvider {
    protected readonly reserved: Set<string>;

    constructor(services: LangiumServices) {
        super(services);
        this.reserved = reservedKeywords(services.Grammar);
    }

    override async rename(document: LangiumDocument, params: RenameParams): Promise<WorkspaceEdit | undefined> {
        const target = this.targetAt(document, params.position);
        if (!target) return undefined;
        const problem = this.checkName(target, params.newName);
        if (problem) throw new ResponseError(ErrorCodes.InvalidParams, problem);
        const edit = await super.rename(document, params);
        const uri = document.uri.toString();
        const here = edit?.changes?.[uri];
        if (!edit?.changes || !here) return edit;
        // aligned members stay aligned: `gain1:  Gain` renamed keeps `Gain` in the other instances' column
        const text = document.textDocument;
        const lineAt = (line: number) =>
            line < 0 || line >= text.lineCount
                ? undefined
                : text
                      .getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } })
                      .replace(/\r?\n$/, '');
        return { ...edit, changes: { ...edit.changes, [uri]: keepAlignment(here, lineAt) } };
    }

    override prepareRename(document: LangiumDocument, params: PrepareRenameParams): MaybePromise<Range | undefined> {
        return this.targetAt(document, params.position) ? super.prepareRename(document, params) : undefined;
    }

    /** Why `newName` cannot be given to `target`, or undefined if it can. */
    checkName(target: AstNode, newName: string): string | undefined {
        if (!NAME.test(newName))
            return `'${newName}' is not a valid name (a letter or '_', then letters, digits or '_').`;
        if (this.reserved.has(newName)) return `'${newName}' is a keyword of the language and cannot be a name.`;
        const container = target.$container as unknown as Record<string, unknown> | undefined;
        const siblings = container && target.$containerProperty ? container[target.$containerProperty] : undefined;
        if (Array.isArray(siblings)) {
            const clash: unknown = siblings.find(
                s => s !== target && (s as { name?: unknown }).name === newName && !isKernel(s),
            );
            if (clash) return `'${newName}' is already the name of another ${describeType(clash as AstNode)} here.`;
        }
        return undefined;
    }

    /** The declaration renamed from this position: a named declaration (not a kernel name) or a reference to one. */
    protected targetAt(document: LangiumDocument, position: Position): AstNode | undefined {
        const root = document.parseResult?.value?.$cstNode;
        if (!root) return undefined;
        const offset = document.textDocument.offsetAt(position);
        const leaf: CstNode | undefined = CstUtils.findDeclarationNodeAtOffset(
            root,
            offset,
            this.grammarConfig.nameRegexp,
        );
        if (!leaf) return undefined;
        const target = this.references.findDeclaration(leaf);
        if (!target || isKernel(target) || !target.$cstNode) return undefined;
        return target;
    }
}

function describeType(node: AstNode): string {
    return node.$type === 'ImageType' ? 'image' : node.$type.toLowerCase();
}
